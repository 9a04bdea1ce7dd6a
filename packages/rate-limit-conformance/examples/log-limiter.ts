// log-limiter.ts: a rate limiter from scratch, on the contract's types alone: token buckets (GCRA) and window
// limits kept as an exact log of send times. In process, on an injected clock; no classes, aborts or snapshots.
import type { BucketCheck, BucketKey, Capabilities, Clock, Decision, ErrorResult, Limit, PeekDecision } from '@core/rate-limit-contract';
import type { PenaltyHold, RateLimiter, RateLimitErrorCode, SideEffectResult, SyncOptions, WaitDecision } from '@core/rate-limit-contract';

type Win = { kind: 'window'; perWindow: number; windowMs: number; jitterMs: number };
type Tok = { kind: 'token'; capacity: number; msPerToken: number }; // msPerToken Infinity: a fixed quota
type Def = Win | Tok; type Send = { at: number; cost: number };
interface Bucket {
  def?: Def; tat: number; used: number; hold: number; sends: Send[]; closed: number; from: number;
  others?: { amount: number; at: number; until: number } | undefined; fixed?: { endMin: number; endMax: number } | undefined;
}
type Planned = { b: Bucket; def: Def; cost: number };
const err = (code: RateLimitErrorCode, message: string, path?: string): ErrorResult => ({ kind: 'error', error: { code, message, ...(path === undefined ? {} : { path }) } });
const OK: SideEffectResult = { kind: 'ok' };
const fin = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const span = (w: Win): number => w.windowMs + w.jitterMs;
const tol = (d: Def): number => 1e-9 * (d.kind === 'window' ? d.perWindow : d.capacity * Math.min(d.msPerToken, 1));
const idOf = (k: BucketKey): string => JSON.stringify([k.venue, k.credential, k.axis ?? 'request']);
/** A limit read into a definition; `null` unlimited; `undefined` invalid. */
function parse(l: unknown): Def | null | undefined {
  if (l === null || typeof l !== 'object') return l === null ? null : undefined;
  const { perWindow, windowMs, jitterMs = 0, capacity, refillPerSec, requests, periodMs = 1000 } = l as Record<string, unknown>;
  if (perWindow !== undefined) {
    const ok = fin(perWindow) && perWindow > 0 && fin(windowMs) && windowMs > 0 && fin(jitterMs) && jitterMs >= 0;
    return ok ? { kind: 'window', perWindow, windowMs, jitterMs } : undefined;
  }
  const [cap, perSec] = requests !== undefined ? [requests, fin(periodMs) && periodMs > 0 ? ((requests as number) * 1000) / periodMs : Number.NaN] : [capacity, refillPerSec];
  return fin(cap) && cap > 0 && fin(perSec) && perSec >= 0 ? { kind: 'token', capacity: cap, msPerToken: 1000 / perSec } : undefined;
}
/** What counts for a send at `t`: past a reported fixed window's end, what reached the venue before it no longer does. */
function counted(b: Bucket, w: Win, t: number): Send[] {
  return b.fixed !== undefined && t >= b.fixed.endMax ? b.sends.filter((s) => s.at + w.jitterMs >= (b.fixed as { endMin: number }).endMin) : b.sends;
}
/** A send of `cost` at `t` fits when every interval `(T − span, T]` containing it keeps within `perWindow` (RL-V1). */
function fits(b: Bucket, w: Win, cost: number, t: number): boolean {
  const sends = counted(b, w, t);
  if (t < b.closed) return false;
  const o = b.others !== undefined && t < b.others.until ? b.others : undefined, inside = (at: number, T: number): boolean => at > T - span(w) && at <= T;
  const ends = [t, ...sends.map((s) => s.at), ...(o ? [o.at] : [])].filter((T) => T >= t && T < t + span(w));
  return ends.every((T) => sends.reduce((n, s) => (inside(s.at, T) ? n + s.cost : n), o && inside(o.at, T) ? o.amount : 0) + cost <= w.perWindow + tol(w));
}
/** The earliest time from `from` on a send fits: room only opens where something leaves. */
function earliest(b: Bucket, w: Win, cost: number, from: number): number {
  const o = b.others;
  const times = [from, b.closed, ...b.sends.map((s) => s.at + span(w)), ...(o ? [o.at + span(w), o.until] : []), ...(b.fixed ? [b.fixed.endMax] : [])];
  return times.filter((t) => t >= from && Number.isFinite(t)).sort((x, y) => x - y).find((t) => fits(b, w, cost, t)) ?? Number.POSITIVE_INFINITY;
}
/** Drops what counts for no send from `now` on, and a fixed window that is over. */
function prune(b: Bucket, w: Win, now: number): void {
  const f = b.fixed;
  if (f !== undefined && now >= f.endMax) {
    [b.sends, b.from, b.fixed] = [counted(b, w, now), Math.max(b.from, f.endMin), undefined];
    if (b.others !== undefined && b.others.until <= f.endMax) b.others = undefined;
  }
  b.sends = b.sends.filter((s) => s.at > now - span(w));
  if (b.others !== undefined && (b.others.at <= now - span(w) || now >= b.others.until)) b.others = undefined;
}
function borrowedOf(b: Bucket, now: number): number {
  const d = b.def;
  if (d === undefined) return 0; else if (d.kind === 'token') return d.msPerToken === Number.POSITIVE_INFINITY ? b.used : Math.max(0, b.tat - now) / d.msPerToken;
  prune(b, d, now);
  const ends = [now, ...b.sends.map((s) => s.at)].filter((T) => T >= now);
  const most = Math.max(...ends.map((T) => b.sends.reduce((n, s) => (s.at > T - span(d) && s.at <= T ? n + s.cost : n), b.others && b.others.at > T - span(d) ? b.others.amount : 0)));
  return b.closed > now ? d.perWindow : most;
}
export class LogLimiter implements RateLimiter {
  readonly specificationVersion = 'v1' as const;
  readonly capabilities: Capabilities = {
    distributed: false, injectableClock: true, bookings: true, abortSignal: false, fractionalCosts: true, snapshot: false,
    sync: true, penalize: true, crossVenueChecks: true, windowLimits: true,
  };
  readonly #buckets = new Map<string, Bucket>();
  readonly #waiters = new Set<() => void>(); #closed = false;
  constructor(private readonly clock: Clock) {}
  /** The bucket under `def` now: created, or converted keeping what it borrowed (RL-L5), holds kept (RL-R3). */
  #bucket(key: BucketKey, def: Def | undefined, now: number): Bucket {
    const NONE = Number.NEGATIVE_INFINITY;
    let b = this.#buckets.get(idOf(key));
    if (b === undefined) this.#buckets.set(idOf(key), (b = { tat: now, used: 0, hold: NONE, sends: [], closed: NONE, from: NONE }));
    if (def === undefined || JSON.stringify(b.def) === JSON.stringify(def)) return b;
    const owed = borrowedOf(b, now); Object.assign(b, { def, sends: [], others: undefined, fixed: undefined, closed: NONE, used: owed });
    if (def.kind === 'token') b.tat = Math.max(now + owed * def.msPerToken, b.hold + def.capacity * def.msPerToken);
    else [b.sends, b.closed] = [owed > 0 ? [{ at: now, cost: owed }] : [], b.hold + span(def)];
    return b;
  }
  /** The common send time of a call (RL-V4), or the error that refuses it. */
  #plan(checks: readonly BucketCheck[], now: number): { sendAt: number; planned: Planned[] } | ErrorResult {
    if (this.#closed) return err('closed', 'the limiter is closed');
    if (!Array.isArray(checks) || checks.length === 0) return err('invalid_parameters', 'checks must be a non-empty array', 'checks');
    const merged = new Map<string, { key: BucketKey; def: Def; cost: number; i: number }>();
    for (const [i, c] of checks.entries()) {
      const def = parse(c?.limit);
      if (typeof c?.key?.venue !== 'string' || def === undefined || !fin(c.cost) || c.cost < 0) return err('invalid_parameters', `checks[${i}] is malformed`, `checks[${i}]`);
      if (def === null || c.cost === 0) continue;
      const m = merged.get(idOf(c.key));
      if (m !== undefined && JSON.stringify(m.def) !== JSON.stringify(def)) return err('invalid_parameters', `checks[${i}] gives its bucket a second definition`, `checks[${i}]`);
      merged.set(idOf(c.key), { key: c.key, def, cost: (m?.cost ?? 0) + c.cost, i });
    }
    for (const { key, def, cost, i } of merged.values()) {
      const where = `checks[${i}] (${key.venue}/${key.axis ?? 'request'}): cost ${cost} can never be paid`;
      if (def.kind === 'window' && cost > def.perWindow + tol(def)) return err('cost_unpayable', `${where}: a window of ${def.windowMs} ms holds at most ${def.perWindow}`, `checks[${i}]`);
      const quota = def.kind === 'token' && def.msPerToken === Number.POSITIVE_INFINITY ? this.#bucket(key, def, now).used : undefined;
      if (quota !== undefined && quota + cost > (def as Tok).capacity + tol(def)) return err('cost_unpayable', `${where}: the fixed quota never refills`, `checks[${i}]`);
    }
    const planned = [...merged.values()].map(({ key, def, cost }) => ({ b: this.#bucket(key, def, now), def, cost }));
    let sendAt = now;
    for (const { b, def, cost } of planned)
      if (def.kind === 'token' && def.msPerToken < Number.POSITIVE_INFINITY) sendAt = Math.max(sendAt, b.hold, Math.max(b.tat, now) + (cost - def.capacity) * def.msPerToken - tol(def));
    // each window limit moves the common time to its earliest fit from there, until none moves it (RL-V4)
    for (let moved = true; moved; ) {
      const before = sendAt;
      for (const { b, def, cost } of planned) if (def.kind === 'window') (prune(b, def, now), (sendAt = earliest(b, def, cost, sendAt)));
      moved = sendAt > before;
    }
    return { sendAt, planned };
  }
  #charge(planned: Planned[], sendAt: number): void {
    for (const { b, def, cost } of planned) {
      if (def.kind === 'window') b.sends.push({ at: sendAt, cost });
      else if (def.msPerToken === Number.POSITIVE_INFINITY) b.used += cost;
      else b.tat = Math.max(b.tat, sendAt) + Math.min(cost, def.capacity) * def.msPerToken;
    }
  }
  checkRate(key: BucketKey, limit: Limit, cost: number, options?: { maxWaitMs?: number }): Promise<Decision> { return this.checkRates([{ key, limit, cost }], options); }
  async checkRates(checks: readonly BucketCheck[], options?: { maxWaitMs?: number }): Promise<Decision> {
    const [now, budget] = [this.clock.now(), options?.maxWaitMs];
    if (budget !== undefined && !(fin(budget) && budget > 0)) return err('invalid_parameters', 'options.maxWaitMs must be a finite number above 0', 'options.maxWaitMs');
    const p = this.#plan(checks, now);
    if ('kind' in p) return p;
    const wait = p.sendAt - now;
    if (wait > 0 && (budget === undefined || wait > budget)) return { kind: 'delay', retryAfterMs: Math.max(1, Math.ceil(wait)) };
    this.#charge(p.planned, p.sendAt);
    return wait > 0 ? { kind: 'booked', sendAtMs: p.sendAt, waitMs: wait } : { kind: 'ok', sendAtMs: now };
  }
  async peek(checks: readonly BucketCheck[]): Promise<PeekDecision> {
    const [now, p] = [this.clock.now(), this.#plan(checks, this.clock.now())];
    return 'kind' in p ? p : p.sendAt > now ? { kind: 'delay', retryAfterMs: Math.max(1, Math.ceil(p.sendAt - now)) } : { kind: 'ok', sendAtMs: now };
  }
  async waitForCapacity(checks: readonly BucketCheck[], options?: { maxWaitMs?: number }): Promise<WaitDecision> {
    const d = await this.checkRates(checks, { maxWaitMs: options?.maxWaitMs ?? 10_000 });
    if (d.kind === 'delay') return { kind: 'error', error: { code: 'rate_limit_timeout', message: `a wait of ${d.retryAfterMs} ms`, retryAfterMs: d.retryAfterMs } };
    if (d.kind !== 'booked') return d;
    return new Promise((resolve) => {
      const done = (): void => void (this.#waiters.delete(done), resolve(this.#closed ? err('closed', 'the limiter was closed') : { kind: 'ok', sendAtMs: d.sendAtMs }));
      this.#waiters.add(done), this.clock.setTimer(done, d.waitMs);
    });
  }
  record(key: BucketKey, cost: number, limit?: Limit): void {
    const def = limit === undefined ? undefined : parse(limit);
    if (this.#closed || !fin(cost) || cost < 0 || def === null || (limit !== undefined && def === undefined)) return;
    const b = this.#bucket(key, def, this.clock.now());
    if (b.def !== undefined) this.#charge([{ b, def: b.def, cost }], this.clock.now());
  }
  async sync(key: BucketKey, limit: Limit, used: number, options?: SyncOptions): Promise<SideEffectResult> {
    let opts: SyncOptions | undefined; try { opts = options === undefined ? {} : typeof options === 'object' && options !== null ? { ...options, ...(typeof options.windowEnd === 'object' && options.windowEnd !== null ? { windowEnd: { ...options.windowEnd } } : {}) } : undefined; } catch { opts = undefined; } // read once, in a guard (RL-F2)
    const [def, { sentAtMs, countedOwnCost = 0, outsideOwnCost = 0, windowEnd: end }] = [parse(limit), opts ?? {}];
    if (opts === undefined || def === undefined || !fin(used) || used < 0) return err('invalid_parameters', 'the options, the limit or the usage is malformed');
    const bad = ([[sentAtMs !== undefined && !fin(sentAtMs), 'sentAtMs'], [!fin(countedOwnCost) || countedOwnCost < 0, 'countedOwnCost'], [!fin(outsideOwnCost) || outsideOwnCost < 0, 'outsideOwnCost'], [end !== undefined && (typeof end !== 'object' || end === null), 'windowEnd'],
      [end != null && !fin(end.earliestMs), 'windowEnd.earliestMs'], [end != null && !(fin(end.latestMs) && end.latestMs >= end.earliestMs), 'windowEnd.latestMs']] as const).find(([wrong]) => wrong);
    if (bad !== undefined) return err('invalid_parameters', `options.${bad[1]} is malformed`, `options.${bad[1]}`);
    const now = this.clock.now();
    if (def === null) return OK;
    const b = this.#bucket(key, def, now);
    if (def.kind === 'token') return ((b.tat = Math.max(b.tat, now + used * def.msPerToken)), (b.used = Math.max(b.used, used)), OK);
    prune(b, def, now);
    const [J, known] = [def.jitterMs, sentAtMs !== undefined && sentAtMs <= now];
    const sentAt = known ? (sentAtMs as number) : now;
    const c = Math.min(sentAt + J, now); // the latest time the venue can have counted the report
    const fixed = end !== undefined && end.latestMs - end.earliestMs < def.windowMs / 4 ? end : undefined;
    if (fixed !== undefined && fixed.latestMs <= b.from) return OK; // a window that ended before the latest one began
    // what the venue surely counted of ours: sent inside its window, and jitterMs or more before the reporting request
    const startsBy = end ? end.latestMs - def.windowMs : c - def.windowMs; // an end of any width bounds the start
    const own = known ? b.sends.filter((s) => (end ? s.at >= startsBy : s.at > startsBy) && s.at + J <= sentAt).reduce((n, s) => n + s.cost, outsideOwnCost) : 0;
    const others = used - Math.max(own, known ? countedOwnCost : 0);
    let o = b.others;
    if (o !== undefined && (o.at + J <= sentAt || (fixed !== undefined && o.until <= fixed.earliestMs - def.windowMs))) o = undefined;
    if (others > tol(def)) o = { amount: Math.max(o?.amount ?? 0, others), at: Math.max(o?.at ?? Number.NEGATIVE_INFINITY, c - J), until: fixed?.latestMs ?? Number.POSITIVE_INFINITY };
    b.others = o;
    if (fixed === undefined) return OK;
    const B = Math.min(fixed.earliestMs - def.windowMs, c); // the window began by B: forget what reached the venue before
    [b.sends, b.fixed, b.from] = [b.sends.filter((s) => s.at + J >= B), { endMin: fixed.earliestMs, endMax: fixed.latestMs }, Math.max(b.from, B)];
    return OK;
  }
  async penalize(key: BucketKey, hold: PenaltyHold): Promise<SideEffectResult> {
    const [now, until] = [this.clock.now(), 'untilMs' in hold ? hold.untilMs : this.clock.now() + hold.forMs];
    if (!fin(until)) return err('invalid_parameters', 'the hold must be a finite time', 'hold');
    const b = this.#bucket(key, undefined, now);
    b.hold = Math.max(b.hold, until);
    if (b.def?.kind === 'window') b.closed = Math.max(b.closed, until + span(b.def));
    if (b.def?.kind === 'token') [b.tat, b.used] = [Math.max(b.tat, until + b.def.capacity * b.def.msPerToken), b.def.capacity];
    return OK;
  }
  async borrowed(key: BucketKey): Promise<number> { const b = this.#buckets.get(idOf(key)); return b === undefined ? 0 : borrowedOf(b, this.clock.now()); }
  async reset(key: BucketKey): Promise<SideEffectResult> { this.#buckets.delete(idOf(key)); return OK; }
  async resetVenue(venue: string): Promise<SideEffectResult> { for (const id of this.#buckets.keys()) if (JSON.parse(id)[0] === venue) this.#buckets.delete(id); return OK; }
  async resetAll(): Promise<SideEffectResult> { this.#buckets.clear(); return OK; }
  async snapshot(): Promise<ErrorResult> { return err('not_supported', 'snapshot is not offered (capabilities.snapshot is false)'); }
  async close(): Promise<void> { this.#closed = true; for (const done of [...this.#waiters]) done(); }
}
