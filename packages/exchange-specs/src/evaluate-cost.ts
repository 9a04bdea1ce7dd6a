import { isPresent, listItems, type RequestParams } from './request-params.js';
import type { CostExpr } from './venue-spec.js';

/** The cost of an expression for one request, or why it cannot be priced. */
export type CostResult =
  | { readonly ok: true; readonly cost: number }
  | { readonly ok: false; readonly code: 'missing_parameter' | 'invalid_parameter'; readonly message: string };

function num(v: number | CostExpr, params: RequestParams): CostResult {
  return typeof v === 'number' ? { ok: true, cost: v } : evaluateCost(v, params);
}

function countOf(value: unknown): number | undefined {
  return listItems(value)?.length;
}

/**
 * Prices a request on one bucket (see {@link CostExpr}). A missing parameter the cost depends on,
 * without a documented `absent` cost or default, is an error, never a cost of 1. A `response` cost
 * is 0 here (it is settled after the response by `interpretResponse`).
 *
 * @example
 * ```ts
 * evaluateCost({ kind: 'table', param: 'limit', rows: [{ upTo: 100, cost: 5 }], above: 250, defaultValue: 100 }, params);
 * ```
 */
export function evaluateCost(expr: CostExpr, params: RequestParams): CostResult {
  switch (expr.kind) {
    case 'constant':
      return { ok: true, cost: expr.value };
    case 'presence':
      return num(isPresent(params.get(expr.param)) ? expr.present : expr.absent, params);
    case 'table': {
      const raw = params.get(expr.param);
      let x: number | undefined;
      if (!isPresent(raw)) {
        if (expr.absent !== undefined) return num(expr.absent, params);
        if (expr.defaultValue === undefined) {
          return { ok: false, code: 'missing_parameter', message: `the cost depends on parameter "${expr.param}", which is missing` };
        }
        x = expr.defaultValue;
      } else if ((expr.measure ?? 'value') === 'count') {
        x = countOf(raw);
        if (x === undefined) return { ok: false, code: 'invalid_parameter', message: `parameter "${expr.param}" is not a list` };
      } else {
        x = typeof raw === 'number' ? raw : Number(raw);
        if (!Number.isFinite(x)) return { ok: false, code: 'invalid_parameter', message: `parameter "${expr.param}" is not a number: ${JSON.stringify(raw)}` };
      }
      for (const row of expr.rows) if (x <= row.upTo) return { ok: true, cost: row.cost };
      if (expr.above !== undefined) return { ok: true, cost: expr.above };
      return { ok: false, code: 'invalid_parameter', message: `parameter "${expr.param}" = ${x} is beyond the documented table` };
    }
    case 'count': {
      const raw = params.get(expr.param);
      const n = countOf(raw);
      if (n === undefined) {
        return isPresent(raw)
          ? { ok: false, code: 'invalid_parameter', message: `parameter "${expr.param}" is not a list` }
          : { ok: false, code: 'missing_parameter', message: `the cost depends on the length of "${expr.param}", which is missing` };
      }
      // the safe parameters are sized for the documented maximum: a longer list would be charged more
      // than the bucket allows for, and the venue refuses it anyway
      if (expr.maxItems !== undefined && n > expr.maxItems) {
        return { ok: false, code: 'invalid_parameter', message: `parameter "${expr.param}" holds ${n} items; the venue accepts at most ${expr.maxItems}` };
      }
      return { ok: true, cost: expr.base + expr.per * Math.floor(n / (expr.every ?? 1)) };
    }
    case 'lookup': {
      const raw = params.get(expr.param);
      if (!isPresent(raw)) return { ok: false, code: 'missing_parameter', message: `the cost depends on parameter "${expr.param}", which is missing` };
      const v = typeof raw === 'string' || typeof raw === 'number' ? expr.values[String(raw)] : undefined;
      if (v !== undefined) return { ok: true, cost: v };
      if (expr.otherwise !== undefined) return { ok: true, cost: expr.otherwise };
      return { ok: false, code: 'invalid_parameter', message: `parameter "${expr.param}" = ${JSON.stringify(raw)} has no documented cost` };
    }
    case 'response':
      return { ok: true, cost: 0 };
  }
}

/** The cost settled after a response, for a `response` expression (0 for the others). */
export function responseCost(expr: CostExpr, body: unknown, read: (body: unknown, path: string) => unknown): number {
  if (expr.kind !== 'response') return 0;
  const items = read(body, expr.path);
  const n = Array.isArray(items) ? items.length : 0;
  return expr.per * Math.ceil(n / (expr.every ?? 1));
}

/** The largest cost an expression can charge before the response (sizes the safe capacity). */
export function maxCost(expr: CostExpr | number): number {
  if (typeof expr === 'number') return expr;
  switch (expr.kind) {
    case 'constant':
      return expr.value;
    case 'presence':
      return Math.max(maxCost(expr.present), maxCost(expr.absent));
    case 'table':
      return Math.max(...expr.rows.map((r) => r.cost), expr.above ?? 0, expr.absent === undefined ? 0 : maxCost(expr.absent));
    case 'count':
      return expr.base + expr.per * Math.floor((expr.maxItems ?? 1) / (expr.every ?? 1));
    case 'lookup':
      return Math.max(...Object.values(expr.values), expr.otherwise ?? 0);
    case 'response':
      return 0;
  }
}
