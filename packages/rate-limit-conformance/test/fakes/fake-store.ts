import { createHash } from 'node:crypto';
import type { BucketKey, Limit, NormalizedLimit } from '@core/rate-limit-contract';
import { MODEL_EPS, msPerToken, type ModelLimit } from '../../src/model-arithmetic.js';
import { ReferenceModel, type ModelBucket } from '../../src/reference-model.js';
import {
  EXACT_WINDOWS,
  afterSync,
  countAt,
  countingAt,
  earliestFit,
  fitsAt,
  pruned,
  windowTolerance,
  type ModelWindow,
  type SyncFlaws,
  type WindowBook,
  type WindowState,
} from '../../src/window-log.js';

/** Deliberate defects, each breaking one rule of the rulebook (for the suite's self-test). */
export interface FakeFlaws {
  /** Prices every request at 1 (breaks RL-A1). */
  readonly priceAtOne?: boolean;
  /** Spends the cost of a refused probe (breaks RL-A3). */
  readonly spendOnRefusedProbe?: boolean;
  /** Lets idle accrual pile up above capacity (breaks RL-A4). */
  readonly bankAccrual?: boolean;
  /** Charges a booking only at its send time, so cheap traffic spends it first (breaks RL-W2). */
  readonly chargeAtSendTime?: boolean;
  /** Debits the buckets that could pay when a multi-bucket check is refused (breaks RL-M1). */
  readonly partialMultiDebit?: boolean;
  /** Answers ok when its store is unreachable (breaks RL-F1). */
  readonly okWhenStoreFails?: boolean;
  /** Claims to be distributed, but its peer keeps buckets of its own (breaks RL-W2 and RL-A6 across processes). */
  readonly unsharedPeer?: boolean;
  /** Answers a booking for later as `ok` with a wait, which reads as "send now" (breaks RL-W1). */
  readonly okForBooking?: boolean;
  /** Accepts venues, axes and credentials of any length (breaks RL-K4). */
  readonly namesUnbounded?: boolean;
  /** Reads an empty list of checks as a call that names no bucket, and admits it (breaks RL-M6). */
  readonly emptyChecksAdmitted?: boolean;
  /** Treats a missing limit as unlimited (breaks RL-L2). */
  readonly missingLimitUnlimited?: boolean;
  /** Lifts a penalty hold when the bucket is redefined (breaks RL-R3). */
  readonly redefinitionLiftsHold?: boolean;
  /** Compares with an absolute tolerance of 1e-9, as if every bucket had capacity 1 or more (breaks RL-A7). */
  readonly absoluteTolerance?: boolean;
  /** Answers `internal` for input that cannot be read (breaks RL-F2). */
  readonly internalForUnreadable?: boolean;
  /**
   * Keeps a window limit as the usual approximation, a token bucket of capacity `perWindow` refilled
   * `perWindow` per window, which lets almost twice the limit through across a window's edge (breaks RL-V1).
   */
  readonly windowAsTokenBucket?: boolean;
  /**
   * Fits a send on a window limit by the window ending at the send alone, so a later cheap call takes
   * what a booking ahead holds (breaks RL-V2).
   */
  readonly windowIgnoresBookingsAhead?: boolean;
  /** Keeps a penalty as a full window recorded at its end, which a fixed window's report then forgets (breaks RL-V2). */
  readonly penaltyForgotten?: boolean;
  /** Adds the two lower bounds of this deployment's part of a report, the limiter's and `countedOwnCost` (breaks RL-V5). */
  readonly syncSumsOwn?: boolean;
  /** Leaves `outsideOwnCost` out of its own count of the sends a report counted (breaks RL-V5). */
  readonly syncIgnoresOutside?: boolean;
  /** Takes as counted the sends made within `jitterMs` before the reporting request, still on their way (breaks RL-V5). */
  readonly syncTakesSendsInFlight?: boolean;
  /** Adds a report to an earlier one it does not replace, instead of keeping the larger (breaks RL-V5). */
  readonly syncSumsReports?: boolean;
  /** Forgets nothing on a report of a fixed window: the window before's sends hold the new one back (breaks RL-V5). */
  readonly syncForgetsNothing?: boolean;
  /** Forgets what was sent before a fixed window began, as if every send arrived at once (breaks RL-V5). */
  readonly syncForgetsBySendTime?: boolean;
  /** Applies a report of a fixed window that ended before the latest reported one began (breaks RL-V5). */
  readonly syncAppliesStale?: boolean;
  /** Reads a call's priority but admits every class as normal with nothing kept free (breaks RL-Q1, RL-Q4). */
  readonly classesIgnored?: boolean;
  /** Sends every critical call at once, whatever the bucket holds ahead (breaks RL-Q3: RL-A6 for the sum of all classes). */
  readonly criticalSkipsCheck?: boolean;
  /** Lets a call go at once past bookings of its own class ahead (breaks RL-Q2). */
  readonly classFifoIgnored?: boolean;
  /** Counts no critical send against a lower class's line on a window limit (breaks RL-Q4: every send counts). */
  readonly windowLineSkipsCritical?: boolean;
  /** Keeps the reserve by scaling the whole bucket, refill included, so a lower class alone gets less than the refill rate (breaks RL-Q4). */
  readonly reserveCutsRate?: boolean;
  /** Claims no priorities (`capabilities.priorities` false) and admits a call naming one as if it did not (breaks RL-Q5). */
  readonly priorityIgnoredSilently?: boolean;
  /** Reads a check's own reserve but keeps the call's on every bucket (breaks RL-Q6). */
  readonly checkReserveIgnored?: boolean;
}

/** The exact window arithmetic with the window flaws of {@link FakeFlaws} (none: the oracle itself). */
export function flawedWindows(flaws: FakeFlaws): WindowBook<WindowState> {
  const sync: SyncFlaws = {
    ...(flaws.syncSumsOwn ? { sumsOwn: true } : {}),
    ...(flaws.syncIgnoresOutside ? { ignoresOutside: true } : {}),
    ...(flaws.syncTakesSendsInFlight ? { takesInFlight: true } : {}),
    ...(flaws.syncSumsReports ? { sumsReports: true } : {}),
    ...(flaws.syncForgetsNothing ? { forgetsNothing: true } : {}),
    ...(flaws.syncForgetsBySendTime ? { forgetsBySendTime: true } : {}),
    ...(flaws.syncAppliesStale ? { appliesStale: true } : {}),
  };
  const book: WindowBook<WindowState> = { ...EXACT_WINDOWS, sync: (s, w, used, now, report) => afterSync(s, w, used, now, report, sync) };
  if (flaws.windowIgnoresBookingsAhead) {
    // only the interval ending at the send itself is looked at
    const alone = (s: WindowState, w: ModelWindow, cost: number, t: number, line: number): boolean =>
      t >= s.closedUntil && countAt(s, w, t, t) + cost <= line + windowTolerance(w);
    book.earliest = (s, w, cost, from, line, now) => earliestFit(pruned(s, w, now), w, cost, from, line, alone);
  }
  if (flaws.windowLineSkipsCritical) {
    const below = (s: WindowState, w: ModelWindow, cost: number, t: number, line: number): boolean =>
      fitsAt(s, w, cost, t, w.perWindow) &&
      fitsAt(
        s,
        w,
        cost,
        t,
        line,
        countingAt(s, w, t).filter((x) => x.cls !== 0),
      );
    book.earliest = (s, w, cost, from, line, now) => earliestFit(pruned(s, w, now), w, cost, from, line, below);
  }
  if (flaws.penaltyForgotten) book.penalize = (s, w, untilMs, now) => EXACT_WINDOWS.charge(s, w, w.perWindow, Math.max(untilMs, now), now, 1);
  return book;
}

/** The reference model with the arithmetic flaws of {@link FakeFlaws} (none for the correct fake). */
class FakeModel extends ReferenceModel {
  readonly #flaws: FakeFlaws;

  constructor(flaws: FakeFlaws, windows: WindowBook) {
    super(windows);
    this.#flaws = flaws;
  }

  protected override tolerance(limit: NormalizedLimit): number {
    if (!this.#flaws.absoluteTolerance) return super.tolerance(limit);
    const scale = limit.refillPerSec === 0 ? limit.capacity : limit.capacity * msPerToken(limit);
    return MODEL_EPS * Math.max(1, scale);
  }

  protected override classGate(cs: readonly number[], cls: number, now: number): boolean {
    if (!this.#flaws.classFifoIgnored) return super.classGate(cs, cls, now);
    // only bookings of higher classes count: the call's own class is passed by
    return cls === 0 ? true : super.classGate(cs, cls - 1, now);
  }

  protected override redefine(live: ModelBucket, limit: ModelLimit, now: number): ModelBucket {
    return super.redefine(this.#flaws.redefinitionLiftsHold ? { ...live, hold: Number.NEGATIVE_INFINITY } : live, limit, now);
  }
}

/** What limiters sharing one "store" share: the buckets, and whether the store can be reached. */
export class FakeStore {
  readonly model: ReferenceModel;
  /** The store is unreachable (a fault hook of the subject). */
  broken = false;
  /** Records kept while the store is unreachable (bounded) and how many were dropped. */
  readonly buffered: { key: BucketKey; cost: number; limit: Limit | undefined }[] = [];
  dropped = 0;

  /** `windows`: the window arithmetic (by default the exact log with the flaws' defects). */
  constructor(flaws: FakeFlaws = {}, windows: WindowBook = flawedWindows(flaws) as WindowBook) {
    this.model = new FakeModel(flaws, windows);
  }

  /** Makes the store reachable again and applies each buffered record once. */
  repair(now: number): void {
    this.broken = false;
    for (const r of this.buffered.splice(0)) this.model.record(r.key, r.cost, r.limit, now);
  }

  /** The names the buckets are stored under: venue, hashed credential, axis (RL-K3). */
  keyNames(now: number): string[] {
    return this.model.snapshot(now).map((b) => [b.key.venue, hashCredential(b.key.credential), b.key.axis].join(':'));
  }
}

/** The one-way hash that stands for a credential (RL-K3). */
export function hashCredential(credential: string | null): string | null {
  return credential === null ? null : createHash('sha256').update(credential).digest('hex');
}
