/**
 * Every number of a hand-authored spec against the quote of its provenance: a number must appear in the
 * source's own words, or be listed in that provenance's `deviations` with the reason it differs
 * (`conservative`, `tier`, `formula`). {@link unquotedNumbers} lists the numbers that do neither.
 */
import type { WebSocketSpec } from './websocket/websocket-spec.js';
import type { CostExpr, CostRule, Provenance, VenueSpec } from './venue-spec.js';

/** A number of a spec that its quote does not state and no deviation explains. */
export interface UnquotedNumber {
  /** Where the number is (`buckets[1].capacity`, `endpoints[12].costs[0].cost.value`). */
  readonly path: string;
  readonly value: number;
  /** What kind of number: durations may be quoted in any unit. */
  readonly kind: 'number' | 'duration';
  readonly quote: string;
}

const MS_PER = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** Words that state one unit of time without a number ("per minute", "/s", "1M", "DAY"). */
const UNIT_WORDS: Readonly<Record<keyof typeof MS_PER, RegExp>> = {
  second: /\bsec(?:ond)?s?\b|\/s\b|\bper s\b|秒/i,
  minute: /\bmin(?:ute)?s?\b|\/min\b|\b1M\b|分/i,
  hour: /\bhours?\b|\/h\b|\bhourly\b|時間/i,
  day: /\bdays?\b|\bdaily\b|\/d\b|\b24h\b|日/i,
};

/** The numbers a text states: plain (`2400`, `0.33`, `-2.34` as 2.34) and with thousands separators (`2,400`, `12 000`). */
export function quotedNumbers(text: string): ReadonlySet<number> {
  const out = new Set<number>();
  for (const m of text.matchAll(/\d+(?:\.\d+)?/g)) out.add(Number(m[0]));
  for (const m of text.matchAll(/\d{1,3}(?:[,\u202f\u00a0 ]\d{3})+(?:\.\d+)?(?!\d)/g)) out.add(Number(m[0].replace(/[,\u202f\u00a0 ]/g, '')));
  return out;
}

/** Whether a text states a number (a duration in ms also in seconds, minutes, hours or days, or as a unit word for one). */
export function statesNumber(text: string, value: number, kind: UnquotedNumber['kind']): boolean {
  const numbers = quotedNumbers(text);
  if (numbers.has(value)) return true;
  if (kind !== 'duration') return false;
  for (const [unit, ms] of Object.entries(MS_PER) as [keyof typeof MS_PER, number][]) {
    const n = value / ms;
    if (!Number.isInteger(n)) continue;
    if (numbers.has(n)) return true;
    if (n === 1 && UNIT_WORDS[unit].test(text)) return true;
  }
  return false;
}

interface Found {
  readonly path: string;
  readonly value: number;
  readonly kind: UnquotedNumber['kind'];
  readonly provenance: Provenance | undefined;
  /** The provenance of the element that holds it (a cost rule's endpoint), whose quote may state it too. */
  readonly outer?: Provenance | undefined;
  /** For a row of a table by item count: the row's number of items (the cost may be a quoted cost per item times it). */
  readonly items?: number;
}

/** Words of a quote that counts requests, orders or messages: there a cost of 1 is one of them. */
const COUNTS_REQUESTS = /\dr\/|\br\/|request|\breq\b|\breq\/|times|\bcalls?\b|order|message|connection|subscri|attempt|transaction|次|回|件/i;

/** Whether a row's cost is its number of items times a quoted cost per item (or divided by a quoted number, Kraken's n/2, or a quoted base plus one per item, Kraken Futures' 9 + size of batch). */
function perItem(numbers: ReadonlySet<number>, value: number, items: number): boolean {
  const ratio = value / items;
  return ratio === 1 || numbers.has(ratio) || numbers.has(items / value) || numbers.has(value - items);
}

/** The cost numbers of an expression (costs, defaults, list sizes; not a table's parameter thresholds). */
function costNumbers(e: number | CostExpr, path: string, out: { path: string; value: number; items?: number }[]): void {
  if (typeof e === 'number') {
    out.push({ path, value: e });
    return;
  }
  switch (e.kind) {
    case 'constant':
      out.push({ path: `${path}.value`, value: e.value });
      return;
    case 'table':
      e.rows.forEach((r, i) => {
        out.push({ path: `${path}.rows[${i}].cost`, value: r.cost, ...(e.measure === 'count' && r.upTo > 0 ? { items: r.upTo } : {}) });
      });
      if (e.above !== undefined) out.push({ path: `${path}.above`, value: e.above });
      if (e.absent !== undefined) costNumbers(e.absent, `${path}.absent`, out);
      return;
    case 'presence':
      costNumbers(e.present, `${path}.present`, out);
      costNumbers(e.absent, `${path}.absent`, out);
      return;
    case 'count':
      out.push({ path: `${path}.base`, value: e.base }, { path: `${path}.per`, value: e.per });
      return;
    case 'lookup':
      for (const [k, v] of Object.entries(e.values)) out.push({ path: `${path}.values.${k}`, value: v });
      if (e.otherwise !== undefined) out.push({ path: `${path}.otherwise`, value: e.otherwise });
      return;
    case 'response':
      out.push({ path: `${path}.per`, value: e.per });
      return;
  }
}

function ruleNumbers(rules: readonly CostRule[] | undefined, path: string, fallback: Provenance | undefined, out: Found[]): void {
  rules?.forEach((r, i) => {
    const found: { path: string; value: number; items?: number }[] = [];
    costNumbers(r.cost, `${path}[${i}].cost`, found);
    for (const f of found) out.push({ ...f, kind: 'number', provenance: r.provenance ?? fallback, outer: fallback });
  });
}

interface SizedBucket {
  readonly algorithm: string;
  readonly provenance: Provenance;
  readonly limit?: number;
  readonly windowMs?: number;
  readonly capacity?: number;
  readonly refillPerSec?: number;
  readonly tiers?: Readonly<Record<string, { readonly limit?: number; readonly capacity?: number; readonly refillPerSec?: number }>>;
}

function bucketNumbers(buckets: readonly SizedBucket[], out: Found[]): void {
  buckets.forEach((b, i) => {
    const at = (k: string, value: number | undefined, kind: Found['kind'] = 'number'): void => {
      if (value !== undefined) out.push({ path: `buckets[${i}].${k}`, value, kind, provenance: b.provenance });
    };
    at('limit', b.limit);
    at('windowMs', b.windowMs, 'duration');
    at('capacity', b.capacity);
    at('refillPerSec', b.refillPerSec);
    for (const [name, t] of Object.entries(b.tiers ?? {})) {
      at(`tiers.${name}.limit`, t.limit);
      at(`tiers.${name}.capacity`, t.capacity);
      at(`tiers.${name}.refillPerSec`, t.refillPerSec);
    }
  });
}

function restNumbers(spec: VenueSpec): Found[] {
  const out: Found[] = [];
  bucketNumbers(spec.buckets, out);
  spec.endpoints.forEach((e, i) => {
    ruleNumbers(e.costs, `endpoints[${i}].costs`, e.provenance, out);
    ruleNumbers(e.publicCosts, `endpoints[${i}].publicCosts`, e.provenance, out);
  });
  ruleNumbers(spec.global, 'global', undefined, out);
  ruleNumbers(spec.fallback?.costs, 'fallback.costs', spec.fallback?.provenance, out);
  ruleNumbers(spec.fallback?.publicCosts, 'fallback.publicCosts', spec.fallback?.provenance, out);
  spec.errors?.forEach((r, i) => {
    r.wait?.forEach((w, j) => {
      const path = `errors[${i}].wait[${j}]`;
      if (w.from === 'fixed') out.push({ path: `${path}.ms`, value: w.ms, kind: 'duration', provenance: r.provenance });
      if (w.from === 'window-end') out.push({ path: `${path}.windowMs`, value: w.windowMs, kind: 'duration', provenance: r.provenance });
    });
  });
  return out;
}

function webSocketNumbers(spec: WebSocketSpec): Found[] {
  const out: Found[] = [];
  bucketNumbers(spec.buckets, out);
  spec.caps?.forEach((c, i) => {
    out.push({ path: `caps[${i}].limit`, value: c.limit, kind: 'number', provenance: c.provenance });
  });
  spec.endpoints.forEach((e, i) => {
    const p = `endpoints[${i}]`;
    // A connection attempt or a message charged 1 is one of what its bucket counts.
    e.connect.charges.forEach((c, j) => {
      if (c.cost !== 1) out.push({ path: `${p}.connect.charges[${j}].cost`, value: c.cost, kind: 'number', provenance: c.provenance ?? e.connect.provenance });
    });
    e.connect.rest?.forEach((c, j) => {
      out.push({ path: `${p}.connect.rest[${j}].cost`, value: c.cost, kind: 'number', provenance: c.provenance ?? e.connect.provenance });
    });
    e.messages.forEach((m, j) => {
      if (m.cost !== 1) out.push({ path: `${p}.messages[${j}].cost`, value: m.cost, kind: 'number', provenance: m.provenance });
    });
    e.operations?.forEach((o, j) => {
      o.rest?.forEach((c, k) => {
        out.push({ path: `${p}.operations[${j}].rest[${k}].cost`, value: c.cost, kind: 'number', provenance: c.provenance ?? o.provenance });
      });
    });
  });
  return out;
}

/**
 * The numbers of a spec (REST or WebSocket) that the quote of their provenance does not state and no
 * deviation of that provenance lists: bucket limits, windows, capacities, refill rates and tier values, every
 * cost, the fixed waits of error rules; WebSocket caps, connection, message and operation charges. A number
 * without a provenance of its own is read against the nearest one (a cost rule's endpoint); a cost rule's number
 * may also be stated by its endpoint's quote. A duration
 * counts as stated in any unit. A zero cost needs no quote (nothing is charged), nor a cost of 1 on a quote that
 * counts requests, orders or messages (one of them), nor a row of a table by item count whose cost is its items
 * times a quoted cost per item.
 */
export function unquotedNumbers(spec: VenueSpec | WebSocketSpec): UnquotedNumber[] {
  const found = 'caps' in spec || spec.endpoints.some((e) => 'connect' in e) ? webSocketNumbers(spec as WebSocketSpec) : restNumbers(spec as VenueSpec);
  const out: UnquotedNumber[] = [];
  for (const f of found) {
    if (f.value === 0 && f.kind === 'number') continue;
    const quote = [f.provenance?.quote, f.provenance === f.outer ? undefined : f.outer?.quote].filter((q) => q !== undefined).join(' | ');
    if (statesNumber(quote, f.value, f.kind)) continue;
    if (f.kind === 'number' && f.value === 1 && COUNTS_REQUESTS.test(quote)) continue;
    if (f.items !== undefined && perItem(quotedNumbers(quote), f.value, f.items)) continue;
    if ([...(f.provenance?.deviations ?? []), ...(f.outer?.deviations ?? [])].some((d) => d.value === f.value)) continue;
    out.push({ path: f.path, value: f.value, kind: f.kind, quote });
  }
  return out;
}
