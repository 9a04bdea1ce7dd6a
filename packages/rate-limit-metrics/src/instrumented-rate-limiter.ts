import type {
  BucketCheck,
  BucketKey,
  BucketSnapshot,
  Capabilities,
  CheckOptions,
  Decision,
  ErrorResult,
  Limit,
  PeekDecision,
  PenaltyHold,
  RateLimiter,
  SideEffectResult,
  SyncOptions,
  WaitDecision,
  WaitOptions,
} from '@core/rate-limit-contract';
import type { AdmissionOperation, BucketName, LimiterInstruments } from './limiter-instruments.js';

/** Reads a caller's key without keeping its credential: venue and axis, or `undefined` when unreadable. */
function nameOf(key: unknown): (BucketName & { readonly id: string }) | undefined {
  try {
    if (typeof key !== 'object' || key === null) return undefined;
    const { venue, axis, credential } = key as { venue?: unknown; axis?: unknown; credential?: unknown };
    if (typeof venue !== 'string' || venue === '') return undefined;
    const a = axis === undefined ? 'request' : axis;
    if (typeof a !== 'string' || a === '') return undefined;
    // the credential only tells buckets apart within the call; it is never kept or reported
    return { venue, axis: a, id: `${venue}\u0000${typeof credential === 'string' ? credential : ''}\u0000${a}` };
  } catch {
    return undefined;
  }
}

/** Whether a check charges nothing (an unlimited bucket or cost 0), as the front door leaves it out. */
function chargesNothing(limit: unknown, cost: unknown): boolean {
  return limit === null || cost === 0;
}

/** The distinct buckets of a list of checks (venue and axis) that charge something, or none when the list cannot be read. */
function namesOf(checks: unknown): BucketName[] {
  try {
    if (!Array.isArray(checks)) return [];
    const out: BucketName[] = [];
    const seen = new Set<string>();
    for (const c of checks as unknown[]) {
      if (typeof c !== 'object' || c === null) continue;
      const { key, limit, cost } = c as { key?: unknown; limit?: unknown; cost?: unknown };
      if (chargesNothing(limit, cost)) continue;
      const n = nameOf(key);
      if (n === undefined || seen.has(n.id)) continue;
      seen.add(n.id);
      out.push({ venue: n.venue, axis: n.axis });
    }
    return out;
  } catch {
    return [];
  }
}

function isUnavailable(r: unknown): boolean {
  return typeof r === 'object' && r !== null && (r as { kind?: unknown }).kind === 'error' && (r as ErrorResult).error?.code === 'backend_unavailable';
}

/**
 * Any `RateLimiter` with metrics: every call goes to the wrapped limiter unchanged, and its answer is
 * recorded. For limiters not built on the kit's front door (which reports its own admissions); see
 * `instrumentRateLimiter`. It records what the front door records (admission answers; the other
 * methods pass through untouched), so a wrapped limiter and a front-door limiter report alike.
 * Answers are never changed.
 */
export class InstrumentedRateLimiter implements RateLimiter {
  readonly specificationVersion: RateLimiter['specificationVersion'];
  readonly capabilities: Capabilities;
  readonly #inner: RateLimiter;
  readonly #m: LimiterInstruments;
  readonly #now: () => number;
  readonly #stop: () => void;

  /**
   * @param inner - the limiter to wrap.
   * @param instruments - where answers are recorded.
   * @param now - the clock waits are measured on (ms).
   * @param stop - unregisters the observed instruments (called by `close()`).
   */
  constructor(inner: RateLimiter, instruments: LimiterInstruments, now: () => number, stop: () => void) {
    this.#inner = inner;
    this.#m = instruments;
    this.#now = now;
    this.#stop = stop;
    this.specificationVersion = inner.specificationVersion;
    this.capabilities = inner.capabilities;
  }

  /** The wrapped limiter. */
  get inner(): RateLimiter {
    return this.#inner;
  }

  checkRate(key: BucketKey, limit: Limit, cost: number, options?: CheckOptions): Promise<Decision> {
    const p = options === undefined ? this.#inner.checkRate(key, limit, cost) : this.#inner.checkRate(key, limit, cost, options);
    return p.then((d) => {
      const n = chargesNothing(limit, cost) ? undefined : nameOf(key);
      this.#admission('checkRate', n === undefined ? [] : [n], d, undefined);
      return d;
    });
  }

  checkRates(checks: readonly BucketCheck[], options?: CheckOptions): Promise<Decision> {
    const p = options === undefined ? this.#inner.checkRates(checks) : this.#inner.checkRates(checks, options);
    return p.then((d) => {
      this.#admission('checkRates', namesOf(checks), d, undefined);
      return d;
    });
  }

  peek(checks: readonly BucketCheck[]): Promise<PeekDecision> {
    return this.#inner.peek(checks).then((d) => {
      this.#admission('peek', namesOf(checks), d, undefined);
      return d;
    });
  }

  waitForCapacity(checks: readonly BucketCheck[], options?: WaitOptions): Promise<WaitDecision> {
    const start = this.#now();
    const names = namesOf(checks);
    const p = options === undefined ? this.#inner.waitForCapacity(checks) : this.#inner.waitForCapacity(checks, options);
    return p.then((d) => {
      this.#admission('waitForCapacity', names, d, this.#now() - start);
      return d;
    });
  }

  record(key: BucketKey, cost: number, limit?: Limit): void {
    if (limit === undefined) this.#inner.record(key, cost);
    else this.#inner.record(key, cost, limit);
  }

  sync(key: BucketKey, limit: Limit, minBorrowed: number, options?: SyncOptions): Promise<SideEffectResult> {
    return options === undefined ? this.#inner.sync(key, limit, minBorrowed) : this.#inner.sync(key, limit, minBorrowed, options);
  }

  penalize(key: BucketKey, hold: PenaltyHold): Promise<SideEffectResult> {
    return this.#inner.penalize(key, hold);
  }

  borrowed(key: BucketKey): Promise<number | ErrorResult> {
    return this.#inner.borrowed(key);
  }

  reset(key: BucketKey): Promise<SideEffectResult> {
    return this.#inner.reset(key);
  }

  resetVenue(venue: string): Promise<SideEffectResult> {
    return this.#inner.resetVenue(venue);
  }

  resetAll(): Promise<SideEffectResult> {
    return this.#inner.resetAll();
  }

  snapshot(): Promise<readonly BucketSnapshot[] | ErrorResult> {
    return this.#inner.snapshot();
  }

  close(): Promise<void> {
    this.#stop();
    return this.#inner.close();
  }

  #admission(operation: AdmissionOperation, names: readonly BucketName[], d: Decision | WaitDecision, waitedMs: number | undefined): void {
    try {
      if (names.length > 0) this.#m.admission(operation, names.length, names, d, waitedMs);
      else if (isUnavailable(d)) this.#m.unavailable(operation);
    } catch {
      // metrics never change an answer
    }
  }
}
