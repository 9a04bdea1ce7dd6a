import type { VenueEvidence } from '@core/exchange-specs';
import type { BucketUsage, EmulatorStats } from '@core/venue-emulator';
import { formatTable } from './format-table.js';

/** A share as a percentage; a share too small to show at one decimal is `<0.1%`, never `0.0%`. */
export function pct(x: number | null): string {
  if (x === null) return 'n/a';
  if (x > 0 && x < 0.0005) return '<0.1%';
  return `${(x * 100).toFixed(1)}%`;
}

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

function window(b: BucketUsage): string {
  if (b.algorithm === 'token-bucket') return `${num(b.limit)} cap, ${num(b.refillPerSec ?? 0)}/s`;
  const w = b.windowMs % 60_000 === 0 ? `${b.windowMs / 60_000} min` : `${num(b.windowMs / 1000)} s`;
  const kind = b.algorithm === 'fixed-window-aligned' ? 'aligned' : b.algorithm === 'fixed-window-anchored' ? 'anchored' : 'sliding';
  return `${num(b.limit)} / ${w} ${kind}`;
}

/**
 * What a spec's limits are called in the demo's output: a hand-authored spec's are documented, a
 * ccxt-derived spec's are an estimate (ccxt's own pacing), never called documented.
 */
export function limitLabel(evidence: VenueEvidence): string {
  return evidence === 'documented' ? 'documented limit' : 'limit estimated from ccxt';
}

/**
 * The per-bucket table of a run: each limit the run touched, per credential: the limit (headed
 * "documented limit" or "limit estimated from ccxt" by the spec's `evidence`), the cost the venue
 * admitted, its peak, the utilization over complete windows and the refusals.
 */
export function summaryTable(stats: EmulatorStats, evidence: VenueEvidence): string {
  const rows = stats.buckets.map((b) => [
    b.axis,
    b.credentialHash === null ? 'IP' : b.credentialHash,
    window(b),
    num(b.admittedCost),
    pct(b.limit > 0 ? b.peakUsed / b.limit : null),
    pct(b.utilization),
    String(b.refusals),
  ]);
  return formatTable(['bucket', 'key (hash)', limitLabel(evidence), 'admitted', 'peak', 'utilization', 'refused'], rows);
}

/** The busiest instance of each limit (the chart shows one panel per limit). */
export function busiestPerBucket(stats: EmulatorStats): BucketUsage[] {
  const best = new Map<string, BucketUsage>();
  for (const b of stats.buckets) {
    const prev = best.get(b.bucketId);
    if (prev === undefined || b.admittedCost > prev.admittedCost) best.set(b.bucketId, b);
  }
  return [...best.values()];
}

/** One class's waits in a run (all its requests, or one kind of request of it): how long they waited for their send times. */
export interface ClassWaitSummary {
  readonly priority: string;
  /** The kind of request (`DELETE /api/v3/order`), or `all` for the class as a whole. */
  readonly request: string;
  readonly requests: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** The `q` quantile (nearest rank) of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

function summarize(priority: string, request: string, values: readonly number[]): ClassWaitSummary {
  const sorted = [...values].sort((a, b) => a - b);
  return { priority, request, requests: sorted.length, p50Ms: quantile(sorted, 0.5), p99Ms: quantile(sorted, 0.99), maxMs: sorted.at(-1) ?? 0 };
}

/**
 * Per class (critical, normal, bulk, in that order): all its requests, then each kind of request in it
 * when it has several (or always, with `everyKind`), with their waits' p50, p99 and max. `waits` is keyed
 * `<class>\t<request>`.
 */
export function classWaitSummary(waits: Readonly<Record<string, readonly number[]>>, everyKind = false): ClassWaitSummary[] {
  const order = ['critical', 'normal', 'bulk'];
  const byClass = new Map<string, [string, readonly number[]][]>();
  for (const [key, values] of Object.entries(waits)) {
    const [priority = 'normal', request = ''] = key.split('\t');
    const list = byClass.get(priority) ?? [];
    list.push([request, values]);
    byClass.set(priority, list);
  }
  const out: ClassWaitSummary[] = [];
  for (const priority of [...byClass.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b))) {
    const kinds = (byClass.get(priority) ?? []).sort((a, b) => a[0].localeCompare(b[0]));
    out.push(
      summarize(
        priority,
        'all',
        kinds.flatMap(([, v]) => v),
      ),
    );
    if (kinds.length > 1 || everyKind) for (const [request, values] of kinds) out.push(summarize(priority, request, values));
  }
  return out;
}

const ms = (v: number): string => (v < 10 ? v.toFixed(1) : String(Math.round(v)));

/**
 * The line under the wait table on what it leaves out: per class, the requests begun in their process's
 * start-up (`startUpMs`) and their longest wait; undefined when there were none.
 */
export function startUpLine(rows: readonly ClassWaitSummary[], startUpMs: number): string | undefined {
  const all = rows.filter((r) => r.request === 'all');
  if (all.length === 0) return undefined;
  const parts = all.map((r) => `${r.priority} ${r.requests} requests, longest wait ${ms(r.maxMs)} ms`);
  return `  left out above: each process's first ${startUpMs / 1000} s (Node loading and compiling, not the limits): ${parts.join('; ')}`;
}

/** The per-class wait table of a run (beside the per-bucket utilization above it). */
export function classWaitTable(rows: readonly ClassWaitSummary[]): string {
  return formatTable(
    ['class', 'request', 'requests', 'wait p50 (ms)', 'wait p99 (ms)', 'wait max (ms)'],
    rows.map((r) => [r.priority, r.request, String(r.requests), ms(r.p50Ms), ms(r.p99Ms), ms(r.maxMs)]),
  );
}
