// Turns ccxt's per-endpoint cost configs into the spec's cost expressions (src/venue-spec.ts
// CostExpr), with the meaning each exchange's own `calculateRateLimiterCost` gives them in
// ccxt 4.5.84, and merges the costs of several ccxt endpoints that send the same request.

/** A cost to 6 decimals, rounded up (never below ccxt's): 4/3 is 1.333334, 0.1 stays 0.1. */
const round = (x) => {
  const y = x * 1e6;
  const r = Math.round(y);
  return (Math.abs(y - r) < 1e-6 ? r : Math.ceil(y)) / 1e6;
};
const constant = (value) => ({ kind: 'constant', value: round(value) });
const num = (v, what) => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new Error(`${what}: not a cost: ${JSON.stringify(v)}`);
  return v;
};
const has = (config, key) => Object.hasOwn(config, key);

/**
 * A step table over an integer parameter from a function that prices each value (ccxt's `byLimit`
 * and `byNumberOfSymbols` loops): exact at every integer, the rows ascending as the schema wants.
 */
function stepTable(param, measure, priceAt, boundaries, absent) {
  const points = new Set([0]);
  for (const b of boundaries) for (const d of [-1, 0, 1]) if (b + d >= 0) points.add(b + d);
  const sorted = [...points].sort((a, b) => a - b);
  const rows = [];
  for (const x of sorted) {
    const cost = round(priceAt(x));
    const last = rows[rows.length - 1];
    if (last !== undefined && last.cost === cost) last.upTo = x;
    else rows.push({ upTo: x, cost });
  }
  const above = round(priceAt(Number.MAX_SAFE_INTEGER));
  while (rows.length > 1 && rows[rows.length - 1].cost === above) rows.pop();
  const expr = { kind: 'table', param, ...(measure === 'count' ? { measure: 'count' } : {}), rows, above };
  return absent === undefined ? expr : { ...expr, absent: typeof absent === 'number' ? round(absent) : absent };
}

/** ccxt's `byLimit` rows read first to last, the first row with `limit <= max` (Binance, Bitrue, Tokocrypto). */
function limitAtMost(rows, cost) {
  return stepTable(
    'limit',
    'value',
    (x) => rows.find(([max]) => x <= max)?.[1] ?? cost,
    rows.map(([m]) => m),
    cost,
  );
}

/** ccxt's coins.ph rows read first to last, the first with `value >= min`. */
function atLeastRows(param, measure, rows, cost) {
  return stepTable(
    param,
    measure,
    (x) => rows.find(([min]) => x >= min)?.[1] ?? cost,
    rows.map(([m]) => m),
    cost,
  );
}

const presence = (param, present, absent) => ({ kind: 'presence', param, present, absent: typeof absent === 'number' ? round(absent) : absent });

/** Binance's order of checks: noCoin, noSymbol, noPoolId, then byLimit, then cost. */
function binanceChain(config, cost, what) {
  let expr = has(config, 'byLimit')
    ? limitAtMost(
        config.byLimit.map(([m, c]) => [num(m, what), num(c, what)]),
        cost,
      )
    : constant(cost);
  if (has(config, 'noPoolId')) expr = presence('poolId', expr, num(config.noPoolId, what));
  if (has(config, 'noSymbol')) expr = presence('symbol', expr, num(config.noSymbol, what));
  if (has(config, 'noCoin')) expr = presence('coin', expr, num(config.noCoin, what));
  return expr;
}

function coinsphChain(config, cost, what) {
  const limit = has(config, 'byLimit')
    ? atLeastRows(
        'limit',
        'value',
        config.byLimit.map(([m, c]) => [num(m, what), num(c, what)]),
        cost,
      )
    : constant(cost);
  const symbols = has(config, 'byNumberOfSymbols')
    ? presence(
        'symbols',
        atLeastRows(
          'symbols',
          'count',
          config.byNumberOfSymbols.map(([m, c]) => [num(m, what), num(c, what)]),
          cost,
        ),
        limit,
      )
    : limit;
  if (has(config, 'noSymbol')) return presence('symbol', symbols, num(config.noSymbol, what));
  if (has(config, 'noSymbolAndNoSymbols')) return presence('symbol', symbols, presence('symbols', symbols, num(config.noSymbolAndNoSymbols, what)));
  return symbols;
}

/** Every leaf of an expression raised to at least `floor`. */
export function atLeast(expr, floor) {
  const up = (v) => (typeof v === 'number' ? round(Math.max(v, floor)) : atLeast(v, floor));
  switch (expr.kind) {
    case 'constant':
      return constant(Math.max(expr.value, floor));
    case 'presence':
      return { ...expr, present: up(expr.present), absent: up(expr.absent) };
    case 'table':
      return {
        ...expr,
        rows: expr.rows.map((r) => ({ upTo: r.upTo, cost: round(Math.max(r.cost, floor)) })),
        ...(expr.above === undefined ? {} : { above: round(Math.max(expr.above, floor)) }),
        ...(expr.absent === undefined ? {} : { absent: up(expr.absent) }),
      };
    case 'lookup':
      return {
        ...expr,
        values: Object.fromEntries(Object.entries(expr.values).map(([k, v]) => [k, round(Math.max(v, floor))])),
        otherwise: round(Math.max(expr.otherwise ?? floor, floor)),
      };
    default:
      throw new Error(`atLeast: unexpected cost kind ${expr.kind}`);
  }
}

/**
 * The keys of a cost config each `calculateRateLimiterCost` of ccxt 4.5.84 reads, and how. The
 * key is the ccxt class that defines the method (`Exchange` is ccxt's base: `cost` only).
 */
const SEMANTICS = {
  Exchange: {
    keys: ['cost', 'noSymbol', 'byLimit'],
    // ccxt's base class charges `cost` whatever the request. A few exchanges (Aster) still list
    // Binance-style modifiers, which their venue documents: kept, never below `cost`.
    price: (config, cost, what) => atLeast(binanceChain(config, cost, what), cost),
  },
  binance: { keys: ['cost', 'noCoin', 'noSymbol', 'noPoolId', 'byLimit'], price: binanceChain },
  tokocrypto: { keys: ['cost', 'noCoin', 'noSymbol', 'noPoolId', 'byLimit'], price: binanceChain },
  bitrue: { keys: ['cost', 'noSymbol', 'byLimit'], price: binanceChain },
  bitvavo: {
    keys: ['cost', 'noMarket'],
    price: (config, cost, what) => (has(config, 'noMarket') ? presence('market', constant(cost), num(config.noMarket, what)) : constant(cost)),
  },
  coinsph: { keys: ['cost', 'noSymbol', 'noSymbolAndNoSymbols', 'byNumberOfSymbols', 'byLimit'], price: coinsphChain },
  hyperliquid: {
    keys: ['cost', 'byType'],
    price: (config, cost, what) =>
      has(config, 'byType')
        ? presence(
            'type',
            {
              kind: 'lookup',
              param: 'type',
              values: Object.fromEntries(Object.entries(config.byType).map(([k, v]) => [k, round(num(v, what))])),
              otherwise: round(cost),
            },
            cost,
          )
        : constant(cost),
  },
  // KuCoin reads per-version costs (`v1`, `v2`, `v3`); no endpoint of ccxt 4.5.84 has them, and a
  // config that does is refused below (the key is not listed) until it is modelled.
  kucoin: { keys: ['cost'], price: (_config, cost) => constant(cost) },
  // Pacifica: with an API key, a cost above 1 becomes the option `maxCostHugeWithApiKey` (3).
  pacifica: {
    keys: ['cost'],
    price: (_config, cost, _what, ex, method) => constant(cost > 1 ? Math.max(cost, Number(ex.handleOption(method, 'maxCostHugeWithApiKey', 3))) : cost),
  },
};

/** The ccxt class that defines an exchange's `calculateRateLimiterCost` (a key of SEMANTICS). */
export function costSemantics(ccxt, ex) {
  let proto = Object.getPrototypeOf(ex);
  while (proto !== null && !Object.hasOwn(proto, 'calculateRateLimiterCost')) proto = Object.getPrototypeOf(proto);
  if (proto === ccxt.BaseExchange.prototype) return 'Exchange';
  const name = Object.keys(SEMANTICS).find((k) => k !== 'Exchange' && ccxt[k]?.prototype === proto);
  if (name === undefined)
    throw new Error(`${ex.id}: calculateRateLimiterCost is overridden by a class this generator does not model; read it and add it to SEMANTICS`);
  return name;
}

/** The spec cost of one ccxt endpoint under its exchange's semantics. */
export function costOf(semantics, config, what, ex, method) {
  const s = SEMANTICS[semantics];
  for (const k of Object.keys(config)) {
    if (!s.keys.includes(k))
      throw new Error(`${what}: cost config key "${k}" is not read by the ${semantics} semantics modelled here: ${JSON.stringify(config)}`);
  }
  const cost = has(config, 'cost') ? num(config.cost, what) : 1;
  return simplify(s.price(config, cost, what, ex, method));
}

// --- the largest of two costs, for ccxt endpoints that send the same request ----------------------

/** The largest value an expression can take (a bound when two costs cannot be merged exactly). */
export function maxOf(expr) {
  if (typeof expr === 'number') return expr;
  switch (expr.kind) {
    case 'constant':
      return expr.value;
    case 'presence':
      return Math.max(maxOf(expr.present), maxOf(expr.absent));
    case 'table':
      return Math.max(...expr.rows.map((r) => r.cost), expr.above ?? 0, expr.absent === undefined ? 0 : maxOf(expr.absent));
    case 'lookup':
      return Math.max(...Object.values(expr.values), expr.otherwise ?? 0);
    default:
      throw new Error(`maxOf: unexpected cost kind ${expr.kind}`);
  }
}

const asExpr = (v) => (typeof v === 'number' ? constant(v) : v);

/** `expr` knowing whether `param` is present. */
function given(expr, param, present) {
  if (expr.kind === 'presence') {
    if (expr.param === param) return asExpr(present ? expr.present : expr.absent);
    return { ...expr, present: given(asExpr(expr.present), param, present), absent: given(asExpr(expr.absent), param, present) };
  }
  if (expr.kind === 'table' && expr.param === param && !present && expr.absent !== undefined) return asExpr(expr.absent);
  return expr;
}

/**
 * An expression at least as large as both, for every request: exact for constants, presences and
 * tables over the same parameter, else the larger of their maxima.
 */
export function maxExpr(a, b) {
  a = asExpr(a);
  b = asExpr(b);
  if (JSON.stringify(a) === JSON.stringify(b)) return a;
  if (a.kind === 'constant' && b.kind === 'constant') return constant(Math.max(a.value, b.value));
  if (a.kind === 'constant') return atLeast(b, a.value);
  if (b.kind === 'constant') return atLeast(a, b.value);
  if (a.kind !== 'presence' && b.kind === 'presence') return maxExpr(b, a);
  if (a.kind === 'presence') {
    return { kind: 'presence', param: a.param, present: maxExpr(a.present, given(b, a.param, true)), absent: maxExpr(a.absent, given(b, a.param, false)) };
  }
  if (a.kind === 'table' && b.kind === 'table' && a.param === b.param && (a.measure ?? 'value') === (b.measure ?? 'value')) {
    const at = (t, x) => t.rows.find((r) => x <= r.upTo)?.cost ?? t.above ?? Infinity;
    const points = [...new Set([...a.rows, ...b.rows].map((r) => r.upTo))].sort((x, y) => x - y);
    const rows = points.map((x) => ({ upTo: x, cost: round(Math.max(at(a, x), at(b, x))) }));
    const above = Math.max(a.above ?? Infinity, b.above ?? Infinity);
    const absent = a.absent === undefined || b.absent === undefined ? undefined : maxExpr(a.absent, b.absent);
    return {
      ...a,
      rows,
      ...(Number.isFinite(above) ? { above: round(above) } : {}),
      ...(absent === undefined ? {} : { absent: absent.kind === 'constant' ? absent.value : absent }),
    };
  }
  return constant(Math.max(maxOf(a), maxOf(b)));
}

/**
 * The same cost without redundant tests: a presence inside a branch that already decided the
 * parameter, a table's `absent` where the parameter is known present, a presence whose branches agree.
 */
export function simplify(expr, known = {}) {
  if (typeof expr === 'number') return expr;
  switch (expr.kind) {
    case 'presence': {
      if (expr.param in known) return simplify(asExpr(known[expr.param] ? expr.present : expr.absent), known);
      const present = simplify(asExpr(expr.present), { ...known, [expr.param]: true });
      const absent = simplify(asExpr(expr.absent), { ...known, [expr.param]: false });
      if (JSON.stringify(present) === JSON.stringify(absent)) return present;
      return { kind: 'presence', param: expr.param, present, absent: absent.kind === 'constant' ? absent.value : absent };
    }
    case 'table': {
      if (known[expr.param] === false && expr.absent !== undefined) return simplify(asExpr(expr.absent), known);
      if (known[expr.param] === true && expr.absent !== undefined) {
        const { absent: _absent, ...rest } = expr;
        return rest;
      }
      return expr;
    }
    default:
      return expr;
  }
}

/** A cost as written to the generated file: a plain number for a constant. */
export function compact(expr) {
  return expr.kind === 'constant' ? expr.value : expr;
}
