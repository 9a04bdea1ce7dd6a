// map-limiter.ts: a rate limiter whose buckets live in a Map. The kit does everything else: the front
// door (StoreRateLimiter) reads and validates arguments, hashes credentials, shapes answers and runs
// the waiters; the arithmetic (planAdmission, chargeAt, ...) is the same one every limiter runs, on
// times relative to now: a bucket keeps `x` relative to `at`, when it was written, read as `x + (at − now)`.
import type { BucketSnapshot, Capabilities, Clock, SideEffectResult } from '@core/rate-limit-contract';
import {
  NO_HOLD,
  StoreRateLimiter,
  addDebt,
  admits,
  borrowedAt,
  chargeAt,
  decodeBucketId,
  foldPending,
  freshState,
  holdAfter,
  isIdle,
  penalizeUntil,
  planAdmission,
  recordCost,
  redefine,
  syncBorrowed,
  venuePrefix,
  type Admission,
  type AdmitMode,
  type Definition,
  type Hold,
  type LimiterStore,
  type ResolvedKey,
} from '@core/rate-limit-kit';

/** One bucket: its state `x` under `def`, written at `at` (no `def` yet: only a hold or a debt waits for it). Never mutated. */
interface Bucket {
  readonly x: number;
  readonly at: number;
  readonly def: Definition | undefined;
  readonly hold: number;
  readonly debt: number;
  /** Bumped by every write: a booking is returned only when nothing was written after it. */
  readonly version: number;
}

/** What a booking wrote, per bucket, so that cancel() can put it back. */
type Booking = { readonly id: string; readonly before: Bucket | undefined; readonly version: number }[];

const OK: SideEffectResult = { kind: 'ok' };

export class MapStore implements LimiterStore {
  readonly capabilities: Capabilities = {
    distributed: false,
    injectableClock: true,
    bookings: true,
    abortSignal: true,
    fractionalCosts: true,
    snapshot: true,
    sync: true,
    penalize: true,
    crossVenueChecks: true,
    windowLimits: false,
  };
  readonly synchronous = true;
  readonly #buckets = new Map<string, Bucket>();
  #version = 0;
  dropped = 0;

  constructor(readonly timers: Clock) {}

  now(): number {
    return this.timers.now();
  }

  /** A bucket's `x` relative to now (a quota's is its amount). */
  #rel(b: Bucket, def: Definition, now: number): number {
    return def.quota ? b.x : b.x + (b.at - now);
  }

  /** A bucket that is full and not held is the same as no bucket: read it as absent (or as only pending). */
  #get(id: string, now: number): Bucket | undefined {
    const b = this.#buckets.get(id);
    if (b?.def !== undefined && isIdle(this.#rel(b, b.def, now), b.hold - now, b.def, 0)) return undefined;
    return b;
  }

  /** The bucket's state under `def`, relative to now: a new definition converts it, a first one folds in what waited. */
  #state(b: Bucket | undefined, def: Definition, now: number): number {
    if (b === undefined) return freshState(def);
    if (b.def === undefined) return foldPending(b.debt, b.hold - now, def, 0);
    return b.def === def ? this.#rel(b, def, now) : redefine(this.#rel(b, b.def, now), b.hold - now, b.def, def, 0);
  }

  #write(id: string, x: number, def: Definition | undefined, hold: number, debt = 0, at = this.now()): number {
    const version = ++this.#version;
    this.#buckets.set(id, { x, at, def, hold, debt, version });
    return version;
  }

  admit(n: number, keys: readonly ResolvedKey[], defs: readonly Definition[], costs: readonly number[], mode: AdmitMode, budgetMs: number | undefined): Admission {
    const now = this.now();
    const found = keys.slice(0, n).map((k) => this.#get(k.id, now));
    const xs = found.map((b, i) => this.#state(b, defs[i] as Definition, now));
    const plan = { sendAt: 0, unpayable: -1 };
    planAdmission(plan, n, xs, defs, costs, now);
    if (plan.unpayable >= 0) {
      const def = defs[plan.unpayable] as Definition;
      const left = def.quota ? def.capacity - Math.max(0, xs[plan.unpayable] as number) : 0;
      return { status: 'unpayable', index: plan.unpayable, reason: def.quota ? 'quota' : 'horizon', left };
    }
    const s = plan.sendAt;
    if (mode === 'peek') return s <= now ? { status: 'admitted', sendAt: now, now } : { status: 'wait', waitMs: s - now };
    if (!admits(s, now, mode === 'book' ? budgetMs : undefined)) return { status: 'wait', waitMs: s - now };
    const booking: Booking = [];
    for (let i = 0; i < n; i++) {
      const id = (keys[i] as ResolvedKey).id;
      const def = defs[i] as Definition;
      const before = this.#buckets.get(id);
      const version = this.#write(id, chargeAt(xs[i] as number, def, costs[i] as number, s - now), def, before?.hold ?? NO_HOLD);
      booking.push({ id, before, version });
    }
    return s > now ? { status: 'admitted', sendAt: s, now, booking } : { status: 'admitted', sendAt: s, now };
  }

  cancel(booking: unknown): boolean {
    let returned = true;
    for (const { id, before, version } of booking as Booking) {
      if (this.#buckets.get(id)?.version !== version) returned = false;
      else if (before === undefined) this.#buckets.delete(id);
      // putting the old state back is a write too: an earlier booking of this bucket can no longer be returned
      else this.#write(id, before.x, before.def, before.hold, before.debt, before.at);
    }
    return returned;
  }

  record(key: ResolvedKey, cost: number, def: Definition | undefined): void {
    const now = this.now();
    const b = this.#get(key.id, now);
    const d = def ?? b?.def;
    if (d === undefined) this.#write(key.id, 0, undefined, b?.hold ?? NO_HOLD, addDebt(b?.debt ?? 0, cost));
    else this.#write(key.id, recordCost(this.#state(b, d, now), d, cost, 0), d, b?.hold ?? NO_HOLD);
  }

  dropRecord(): void {
    this.dropped++;
  }

  sync(key: ResolvedKey, def: Definition, minBorrowed: number): SideEffectResult {
    const now = this.now();
    const b = this.#get(key.id, now);
    this.#write(key.id, syncBorrowed(this.#state(b, def, now), def, minBorrowed, 0), def, b?.hold ?? NO_HOLD);
    return OK;
  }

  penalize(key: ResolvedKey, hold: Hold): SideEffectResult {
    const now = this.now();
    const until = 'untilMs' in hold ? hold.untilMs : now + hold.forMs;
    const b = this.#get(key.id, now);
    const h = holdAfter(b?.hold ?? NO_HOLD, until, now);
    if (b?.def === undefined) this.#write(key.id, 0, undefined, h, b?.debt ?? 0);
    else this.#write(key.id, penalizeUntil(this.#rel(b, b.def, now), b.def, until - now, 0), b.def, h);
    return OK;
  }

  borrowed(key: ResolvedKey): number {
    const now = this.now();
    const b = this.#get(key.id, now);
    if (b === undefined) return 0;
    return b.def === undefined ? b.debt : borrowedAt(this.#rel(b, b.def, now), b.def, 0);
  }

  reset(key: ResolvedKey): SideEffectResult {
    this.#buckets.delete(key.id);
    return OK;
  }

  resetVenue(venue: string): SideEffectResult {
    for (const id of [...this.#buckets.keys()]) if (id.startsWith(venuePrefix(venue))) this.#buckets.delete(id);
    return OK;
  }

  resetAll(): SideEffectResult {
    this.#buckets.clear();
    return OK;
  }

  snapshot(): BucketSnapshot[] {
    const now = this.now();
    const out: BucketSnapshot[] = [];
    for (const [id, b] of this.#buckets) {
      if (b.def === undefined) continue;
      const x = this.#rel(b, b.def, now);
      if (isIdle(x, b.hold - now, b.def, 0)) continue;
      const borrowed = borrowedAt(x, b.def, 0);
      const bucket = { ...decodeBucketId(id), capacity: b.def.capacity, refillPerSec: b.def.refillPerSec, tokens: b.def.capacity - borrowed, borrowed };
      out.push(b.hold > now ? { ...bucket, heldUntilMs: b.hold } : bucket);
    }
    return out;
  }

  /** The names buckets are stored under: venue, credential hash and axis, never a raw credential. */
  storageKeys(): string[] {
    return [...this.#buckets.keys()];
  }

  close(): void {
    this.#buckets.clear();
  }
}

/** The limiter: the kit's front door over a MapStore. */
export function createMapLimiter(clock: Clock): { limiter: StoreRateLimiter; store: MapStore } {
  const store = new MapStore(clock);
  return { limiter: new StoreRateLimiter(store), store };
}
