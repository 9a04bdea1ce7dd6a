import { createBucketModel, type BucketModel, type BucketSpec, type ModelResult } from '@core/exchange-specs';

/** The usage of one venue window (or, for a token bucket, one second) of one bucket. */
export interface WindowUsage {
  readonly startMs: number;
  readonly endMs: number;
  /** The cost the venue admitted in the window. */
  readonly cost: number;
  /** The highest `used` the venue's counter reached in the window. */
  readonly peakUsed: number;
}

/** One bucket instance (bucket, credential, partition) as the emulator counted it. */
export interface BucketUsage {
  readonly bucketId: string;
  /** The bucket id plus its partition value (`trade/order:BTC-USDT`), as in the limiter's key. */
  readonly axis: string;
  /** The hashed credential (12 hex) or `null` for an IP bucket. */
  readonly credentialHash: string | null;
  readonly algorithm: BucketSpec['algorithm'];
  /** The documented limit per window, or the token bucket's capacity. */
  readonly limit: number;
  /** The window length; for a token bucket the 1 s slots its usage is reported in. */
  readonly windowMs: number;
  /** For a token bucket: the documented refill per second. */
  readonly refillPerSec?: number;
  readonly admittedCost: number;
  readonly admittedRequests: number;
  /** Requests refused because this bucket had no room (violations). */
  readonly refusals: number;
  /** The highest `used` the venue's counter reached. */
  readonly peakUsed: number;
  readonly windows: readonly WindowUsage[];
  /**
   * How much of what the venue allowed was used. A window bucket: the cost admitted per complete
   * window divided by its limit, averaged over the complete windows; `null` before the first complete
   * window (a window longer than the run). A token bucket: the cost admitted since the first request
   * divided by what the bucket allowed meanwhile (`capacity + refill · elapsed`); `null` until one
   * refill period (`capacity / refill`) has passed, since before that the initial burst is all there is.
   */
  readonly utilization: number | null;
}

interface MutableWindow {
  startMs: number;
  endMs: number;
  cost: number;
  peakUsed: number;
}

const TOKEN_SLOT_MS = 1000;
const EPS = 1e-9;

/**
 * One bucket instance: the venue's own algorithm (the exchange-specs reference model) plus what the
 * emulator counted on it, window by window.
 */
export class BucketLedger {
  readonly #bucket: BucketSpec;
  readonly #model: BucketModel;
  readonly #axis: string;
  readonly #credentialHash: string | null;
  readonly #windows: MutableWindow[] = [];
  #anchorMs: number | undefined;
  #admittedCost = 0;
  #admittedRequests = 0;
  #refusals = 0;
  #peakUsed = 0;

  /**
   * @param bucket - the bucket with the identity's tier applied.
   * @param axis - the limiter key's axis for this instance.
   * @param credentialHash - hashed credential or `null`.
   */
  constructor(bucket: BucketSpec, axis: string, credentialHash: string | null) {
    this.#bucket = bucket;
    this.#model = createBucketModel(bucket);
    this.#axis = axis;
    this.#credentialHash = credentialHash;
  }

  get bucket(): BucketSpec {
    return this.#bucket;
  }

  /** The documented limit (window) or capacity (token bucket). */
  get limit(): number {
    return this.#bucket.algorithm === 'token-bucket' ? this.#bucket.capacity : this.#bucket.limit;
  }

  /** The counter's state now, changing nothing (a zero-cost consume). */
  room(nowMs: number): ModelResult {
    return this.#model.consume(nowMs, 0);
  }

  /** Does `cost` fit now? */
  fits(nowMs: number, cost: number): boolean {
    return cost <= this.room(nowMs).remaining + EPS;
  }

  /** Charges an admitted request; the caller checked {@link BucketLedger.fits} first. */
  charge(nowMs: number, cost: number): ModelResult {
    const r = this.#model.consume(nowMs, cost);
    if (!r.admitted) {
      // Callers check fits() in the same synchronous step, so this only happens on a model bug.
      throw new Error(`bucket ${this.#axis}: the venue model refused a cost that fitted`);
    }
    this.#admittedCost += cost;
    this.#admittedRequests += 1;
    this.#peakUsed = Math.max(this.#peakUsed, r.used);
    const w = this.#windowAt(nowMs, r);
    w.cost += cost;
    w.peakUsed = Math.max(w.peakUsed, r.used);
    return r;
  }

  /** Counts a request this bucket refused. */
  refuse(): void {
    this.#refusals += 1;
  }

  /** The usage so far, with windows ending at or before `nowMs` counted as complete. */
  usage(nowMs: number): BucketUsage {
    const b = this.#bucket;
    const token = b.algorithm === 'token-bucket';
    const windowMs = token ? TOKEN_SLOT_MS : b.windowMs;
    const first = this.#anchorMs;
    const windows: MutableWindow[] = this.#windows.map((w) => ({ ...w }));
    const last = windows[windows.length - 1];
    if (last !== undefined && b.algorithm !== 'fixed-window-anchored') {
      // Grid windows after the last charge: allowed by the venue, used by nobody.
      for (let s = last.endMs; s + windowMs <= nowMs + EPS; s += windowMs) windows.push({ startMs: s, endMs: s + windowMs, cost: 0, peakUsed: 0 });
    }
    let utilization: number | null = null;
    if (b.algorithm === 'token-bucket') {
      const elapsedMs = first === undefined ? 0 : nowMs - first;
      const refillPeriodMs = b.refillPerSec > 0 ? (b.capacity / b.refillPerSec) * 1000 : Infinity;
      const allowed = b.capacity + (b.refillPerSec * elapsedMs) / 1000;
      if (elapsedMs >= refillPeriodMs - EPS && allowed > 0) utilization = this.#admittedCost / allowed;
    } else {
      const complete = windows.filter((w) => w.endMs <= nowMs + EPS && first !== undefined && w.startMs >= first - EPS);
      if (complete.length > 0 && b.limit > 0) utilization = complete.reduce((s, w) => s + w.cost, 0) / (complete.length * b.limit);
    }
    return {
      bucketId: b.id,
      axis: this.#axis,
      credentialHash: this.#credentialHash,
      algorithm: b.algorithm,
      limit: this.limit,
      windowMs,
      ...(token ? { refillPerSec: b.refillPerSec } : {}),
      admittedCost: this.#admittedCost,
      admittedRequests: this.#admittedRequests,
      refusals: this.#refusals,
      peakUsed: this.#peakUsed,
      windows,
      utilization,
    };
  }

  /** The window a charge at `nowMs` falls in, opening it (and empty ones skipped on a grid). */
  #windowAt(nowMs: number, r: ModelResult): MutableWindow {
    const b = this.#bucket;
    if (this.#anchorMs === undefined) this.#anchorMs = nowMs;
    let startMs: number;
    let lengthMs: number;
    if (b.algorithm === 'fixed-window-anchored') {
      lengthMs = b.windowMs;
      startMs = r.resetAtMs - b.windowMs;
    } else {
      lengthMs = b.algorithm === 'token-bucket' ? TOKEN_SLOT_MS : b.windowMs;
      const origin = b.algorithm === 'fixed-window-aligned' ? 0 : this.#anchorMs;
      startMs = origin + Math.floor((nowMs - origin) / lengthMs) * lengthMs;
    }
    const last = this.#windows[this.#windows.length - 1];
    if (last !== undefined && Math.abs(last.startMs - startMs) < EPS) return last;
    if (last !== undefined && b.algorithm !== 'fixed-window-anchored') {
      // Grid windows: the empty windows in between are windows the venue allowed and nobody used.
      for (let s = last.endMs; s < startMs - EPS; s += lengthMs) this.#windows.push({ startMs: s, endMs: s + lengthMs, cost: 0, peakUsed: 0 });
    }
    const w: MutableWindow = { startMs, endMs: startMs + lengthMs, cost: 0, peakUsed: 0 };
    this.#windows.push(w);
    return w;
  }
}
