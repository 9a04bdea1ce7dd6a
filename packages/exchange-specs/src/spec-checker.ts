// What the REST and the WebSocket spec validators share: the error list, the type checks, the
// provenance of a number, and the verification block.

/** One validation problem: where (`buckets[2].limit`) and what. */
export interface SpecError {
  readonly path: string;
  readonly message: string;
}

export type Obj = Record<string, unknown>;

const CONFIDENCE = ['documented', 'ccxt-derived', 'observed', 'uncertain'];
const DEVIATION_REASONS = ['conservative', 'tier', 'formula'];

/** `path.k`, or `path[k]` for an index. */
export function join(path: string, k: string | number): string {
  if (typeof k === 'number') return `${path}[${k}]`;
  return path === '' ? k : `${path}.${k}`;
}

/** A short description of a value for an error message. */
export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number') return String(v);
  return typeof v;
}

/** Collects the problems of one spec; each check answers the value when it is well formed. */
export class SpecChecker {
  readonly errors: SpecError[] = [];
  constructor(
    /** The spec's source ids (a provenance must name one of them). */
    readonly sources: Set<string>,
    /** Every provenance must quote the documentation. */
    readonly requireQuote: boolean,
  ) {}

  fail(path: string, message: string): void {
    this.errors.push({ path, message });
  }

  obj(v: unknown, path: string): Obj | undefined {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Obj;
    this.fail(path, `expected an object, got ${describe(v)}`);
    return undefined;
  }

  arr(v: unknown, path: string): readonly unknown[] | undefined {
    if (Array.isArray(v)) return v;
    this.fail(path, `expected an array, got ${describe(v)}`);
    return undefined;
  }

  str(o: Obj, k: string, path: string, optional = false): string | undefined {
    const v = o[k];
    if (v === undefined && optional) return undefined;
    if (typeof v === 'string' && v.length > 0) return v;
    this.fail(join(path, k), `expected a non-empty string, got ${describe(v)}`);
    return undefined;
  }

  /** Flags fields the schema does not know (a typo would otherwise be ignored silently). */
  known(o: Obj, path: string, keys: readonly string[]): void {
    for (const k of Object.keys(o)) if (!keys.includes(k)) this.fail(join(path, k), `unknown field "${k}"`);
  }

  oneOf(o: Obj, k: string, path: string, allowed: readonly string[], optional = false): string | undefined {
    const v = o[k];
    if (v === undefined && optional) return undefined;
    if (typeof v === 'string' && allowed.includes(v)) return v;
    this.fail(join(path, k), `expected one of ${allowed.join(' | ')}, got ${describe(v)}`);
    return undefined;
  }

  num(o: Obj, k: string, path: string, rule: 'positive' | 'nonneg' | 'any', optional = false): number | undefined {
    const v = o[k];
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      this.fail(join(path, k), `expected a finite number, got ${describe(v)}`);
      return undefined;
    }
    if (rule === 'positive' && v <= 0) this.fail(join(path, k), `expected a number > 0, got ${v}`);
    if (rule === 'nonneg' && v < 0) this.fail(join(path, k), `expected a number >= 0, got ${v}`);
    return v;
  }

  /** An array of non-empty strings, each one of `allowed` when given. */
  strings(v: unknown, path: string, allowed?: readonly string[]): void {
    this.arr(v, path)?.forEach((x, i) => {
      if (typeof x !== 'string' || x === '') this.fail(join(path, i), `expected a non-empty string, got ${describe(x)}`);
      else if (allowed !== undefined && !allowed.includes(x)) this.fail(join(path, i), `expected one of ${allowed.join(' | ')}, got ${describe(x)}`);
    });
  }

  provenance(v: unknown, path: string): void {
    const o = this.obj(v, path);
    if (!o) return;
    this.known(o, path, ['source', 'confidence', 'quote', 'deviations']);
    const s = this.str(o, 'source', path);
    if (s !== undefined && !this.sources.has(s)) this.fail(join(path, 'source'), `unknown source id "${s}"`);
    this.oneOf(o, 'confidence', path, CONFIDENCE);
    if (o['quote'] !== undefined || this.requireQuote) this.str(o, 'quote', path);
    if (o['deviations'] !== undefined) this.deviations(o['deviations'], join(path, 'deviations'));
  }

  /** A provenance's `deviations`: each a number, a reason and a text; at most one per number. */
  deviations(v: unknown, path: string): void {
    const seen = new Set<number>();
    const list = this.arr(v, path);
    if (list !== undefined && list.length === 0) this.fail(path, 'expected at least one deviation (or no field)');
    list?.forEach((d, i) => {
      const dp = join(path, i);
      const o = this.obj(d, dp);
      if (!o) return;
      this.known(o, dp, ['value', 'reason', 'text']);
      const value = this.num(o, 'value', dp, 'nonneg');
      if (value !== undefined && seen.has(value)) this.fail(join(dp, 'value'), `duplicate deviation for ${value}`);
      if (value !== undefined) seen.add(value);
      this.oneOf(o, 'reason', dp, DEVIATION_REASONS);
      this.str(o, 'text', dp);
    });
  }
}

/** The `verification` block: when the spec was checked, what was corrected, what was compared. */
export function checkVerification(c: SpecChecker, v: unknown): void {
  const o = c.obj(v, 'verification');
  if (!o) return;
  c.known(o, 'verification', ['checked', 'corrections', 'crossChecks']);
  const date = c.str(o, 'checked', 'verification');
  if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date)) c.fail('verification.checked', `expected YYYY-MM-DD, got "${date}"`);
  c.arr(o['corrections'], 'verification.corrections')?.forEach((x, i) => {
    const p = join('verification.corrections', i);
    const xo = c.obj(x, p);
    if (!xo) return;
    c.known(xo, p, ['what', 'was', 'now', 'source']);
    for (const k of ['what', 'was', 'now']) c.str(xo, k, p);
    const s = c.str(xo, 'source', p);
    if (s !== undefined && !c.sources.has(s)) c.fail(join(p, 'source'), `unknown source id "${s}"`);
  });
  c.arr(o['crossChecks'], 'verification.crossChecks')?.forEach((x, i) => {
    const p = join('verification.crossChecks', i);
    const xo = c.obj(x, p);
    if (!xo) return;
    c.known(xo, p, ['other', 'what', 'ours', 'theirs', 'verdict']);
    for (const k of ['other', 'what', 'ours', 'theirs', 'verdict']) c.str(xo, k, p);
  });
}
