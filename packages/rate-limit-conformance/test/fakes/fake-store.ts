import { createHash } from 'node:crypto';
import type { BucketKey, Limit, NormalizedLimit, SyncOptions } from '@core/rate-limit-contract';
import { MODEL_EPS, msPerToken, type ModelLimit } from '../../src/model-arithmetic.js';
import { ReferenceModel, type LateSend, type ModelBucket } from '../../src/reference-model.js';
import {
  afterLateSend,
  afterSync,
  countAt,
  fitsAt,
  pruned,
  spanOf,
  windowTolerance,
  withEntry,
  type ModelWindow,
  type WindowEntry,
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
  /**
   * Takes as counted by a window sync this deployment's sends made up to the reporting request's send
   * time, also those made within `jitterMs` before it that may still be on their way (breaks RL-V5).
   */
  readonly syncTakesSendsInFlight?: boolean;
  /**
   * Adds each window sync's report to the earlier ones, as the venue's counts were separate spending,
   * instead of replacing an earlier report the new one covers or keeping one entry at the larger cost
   * (breaks RL-V5).
   */
  readonly syncSumsReports?: boolean;
  /**
   * Takes a window sync's venue window as begun at `sentAtMs − windowMs`, as if the reporting request
   * reached the venue at once, instead of up to `jitterMs` later (breaks RL-V5).
   */
  readonly syncIgnoresArrivalJitter?: boolean;
  /**
   * Keeps the reports a newer one does not cover as one entry with it, at the larger cost until one
   * window after the later position, so a large report stays while later reports overlap each other
   * (breaks RL-V5).
   */
  readonly syncMergesReports?: boolean;
  /** Reads a window sync's `answeredCost` but marks nothing answered, so recent own sends always come back as others' (breaks RL-V5). */
  readonly syncIgnoresAnswered?: boolean;
  /**
   * Takes a send marked answered with its window's end as counted by any later report with a `windowEnd`
   * that says more, whatever window that report's end names (breaks RL-V5: a report of the next window
   * says nothing of when the venue counted the send).
   */
  readonly syncAnswersAnyWindow?: boolean;
  /** Forgets nothing on a sync that tells a fixed window's end: the window before's last sends still hold the new window back (breaks RL-V9). */
  readonly syncForgetsNothing?: boolean;
  /** Forgets what was sent before a fixed window's earliest start, as if every send arrived at once (breaks RL-V9: a send made just before may arrive in the window). */
  readonly syncForgetsBySendTime?: boolean;
  /** Forgets the own sends that reached the venue before a fixed window began, but keeps the reports of the window before (breaks RL-V9). */
  readonly syncForgetsOwnOnly?: boolean;
  /** Ignores a record's options: a send that went out late counts twice, at its admission and now (breaks RL-V7). */
  readonly lateRecordCountsTwice?: boolean;
  /** Moves a late send a sync marked answered to when it went out alone, forgetting that it counts until its mark (breaks RL-V7). */
  readonly lateRecordForgetsMark?: boolean;
  /** Reads a call's priority but admits every class as normal with nothing kept free (breaks RL-Q1, RL-Q4). */
  readonly classesIgnored?: boolean;
  /** Sends every critical call at once, whatever the bucket holds ahead (breaks RL-Q3: RL-A6 for the sum of all classes). */
  readonly criticalSkipsCheck?: boolean;
  /** Lets a call go at once past bookings of its own class ahead (breaks RL-Q2). */
  readonly classFifoIgnored?: boolean;
  /**
   * Counts critical sends against a lower class's line on a window limit, so the reserve costs the lower
   * classes all of it even in windows where critical calls spent it (breaks RL-Q4).
   */
  readonly windowLineCountsCritical?: boolean;
  /**
   * Lets bulk fill a window to the limit once critical sends spent the reserve, keeping nothing free for
   * the next critical call (breaks RL-Q4).
   */
  readonly windowBulkKeepsNothing?: boolean;
  /** Answers every peek at a booked send that it still fits, whatever was moved onto its window (breaks RL-V8). */
  readonly heldPeekAlwaysFits?: boolean;
  /** Books a held send again without giving up its entry where it was held (breaks RL-V8: the sends booked behind it lose their room). */
  readonly heldBookingKeepsEntry?: boolean;
  /** Resolves a wait that booked with a plain `ok`, not saying it was booked (breaks RL-V8: a caller cannot tell which sends to ask about). */
  readonly heldBookingUnmarked?: boolean;
  /** Keeps the reserve by scaling the whole bucket, refill included, so a lower class alone gets less than the refill rate (breaks RL-Q4). */
  readonly reserveCutsRate?: boolean;
  /** Claims no priorities (`capabilities.priorities` false) and admits a call naming one as if it did not (breaks RL-Q5). */
  readonly priorityIgnoredSilently?: boolean;
  /** Reads a check's own reserve but keeps the call's on every bucket (breaks RL-Q6). */
  readonly checkReserveIgnored?: boolean;
}

/** The reference model with the arithmetic flaws of {@link FakeFlaws} (none for the correct fake). */
class FakeModel extends ReferenceModel {
  readonly #flaws: FakeFlaws;

  constructor(flaws: FakeFlaws) {
    super();
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

  protected override windowLateSend(log: readonly WindowEntry[], w: ModelWindow, cost: number, late: LateSend, now: number): WindowEntry[] {
    return afterLateSend(log, w, cost, late, now, this.#flaws.lateRecordForgetsMark === true);
  }

  protected override windowSynced(log: readonly WindowEntry[], w: ModelWindow, used: number, now: number, report: SyncOptions): WindowEntry[] {
    if (this.#flaws.syncForgetsNothing || this.#flaws.syncForgetsBySendTime || this.#flaws.syncForgetsOwnOnly) {
      return afterSync(log, w, used, now, report, this.#flaws.syncForgetsNothing ? 'nothing' : this.#flaws.syncForgetsBySendTime ? 'bySendTime' : 'ownOnly');
    }
    if (this.#flaws.syncSumsReports) {
      // the earlier reports stay as they are, and this one is added beside them
      const earlier = pruned(log, w, now).filter((e) => e.kind === 'reported');
      let out = super.windowSynced(
        log.filter((e) => e.kind !== 'reported'),
        w,
        used,
        now,
        report,
      );
      for (const e of earlier) out = withEntry(out, e, w, now);
      return out;
    }
    if (this.#flaws.syncTakesSendsInFlight && report.sentAtMs !== undefined) {
      // the sends within jitterMs before the reporting request, taken as counted besides the others
      const sentAt = Math.min(report.sentAtMs, now);
      const latestStart = Math.max(report.countedSinceMs ?? Number.NEGATIVE_INFINITY, Math.min(sentAt + w.jitterMs, now) - w.windowMs);
      let inFlight = 0;
      for (const e of pruned(log, w, now)) if (e.kind === 'own' && e.from > latestStart && e.to > sentAt - w.jitterMs && e.to <= sentAt) inFlight += e.cost;
      return super.windowSynced(log, w, used, now, { ...report, countedOwnCost: (report.countedOwnCost ?? 0) + inFlight });
    }
    if (this.#flaws.syncIgnoresArrivalJitter && report.sentAtMs !== undefined && report.sentAtMs <= now) {
      // the sends after sentAt − windowMs taken as counted, also those the venue's window may have begun after
      const sentAt = report.sentAtMs;
      const latestStart = Math.max(report.countedSinceMs ?? Number.NEGATIVE_INFINITY, Math.min(sentAt + w.jitterMs, now) - w.windowMs);
      let early = 0;
      for (const e of pruned(log, w, now))
        if (e.kind === 'own' && e.from > sentAt - w.windowMs && e.from <= latestStart && e.to <= sentAt - w.jitterMs) early += e.cost;
      return super.windowSynced(log, w, used, now, { ...report, countedOwnCost: (report.countedOwnCost ?? 0) + early });
    }
    if (this.#flaws.syncAnswersAnyWindow && report.windowEnd !== undefined) {
      // every kept answer report made to look like one of this report's window
      const end = report.windowEnd;
      const moved = log.map((e) =>
        e.answerReport === undefined ? e : { ...e, answerReport: { ...e.answerReport, earliestMs: end.earliestMs, latestMs: end.latestMs } },
      );
      return super.windowSynced(moved, w, used, now, report);
    }
    if (this.#flaws.syncIgnoresAnswered && report.answeredCost !== undefined) {
      const { answeredCost: _ignored, ...rest } = report;
      return super.windowSynced(log, w, used, now, rest);
    }
    if (this.#flaws.syncMergesReports) {
      // the reports still in force become one entry: their largest cost over all their positions
      const out = super.windowSynced(log, w, used, now, report);
      const reports = out.filter((e) => e.kind === 'reported');
      if (reports.length < 2) return out;
      const one: WindowEntry = {
        from: Math.min(...reports.map((e) => e.from)),
        to: Math.max(...reports.map((e) => e.to)),
        cost: reports.reduce((sum, e) => sum + e.cost, 0),
        kind: 'reported',
      };
      return withEntry(
        out.filter((e) => e.kind !== 'reported'),
        one,
        w,
        now,
      );
    }
    return super.windowSynced(log, w, used, now, report);
  }

  protected override windowLineFits(log: readonly WindowEntry[], w: ModelWindow, cost: number, t: number, line: number, keep: number): boolean {
    if (this.#flaws.windowLineCountsCritical) return fitsAt(log, w, cost, t, line, true, keep);
    if (this.#flaws.windowBulkKeepsNothing) return fitsAt(log, w, cost, t, line);
    return super.windowLineFits(log, w, cost, t, line, keep);
  }

  protected override windowHeldWait(log: readonly WindowEntry[], w: ModelWindow, cost: number, heldAt: number, now: number): number {
    return this.#flaws.heldPeekAlwaysFits ? 0 : super.windowHeldWait(log, w, cost, heldAt, now);
  }

  protected override windowFits(log: readonly WindowEntry[], w: ModelWindow, cost: number, t: number): boolean {
    if (!this.#flaws.windowIgnoresBookingsAhead) return super.windowFits(log, w, cost, t);
    return countAt(log, spanOf(w), t) + cost <= w.perWindow + windowTolerance(w);
  }
}

/** What limiters sharing one "store" share: the buckets, and whether the store can be reached. */
export class FakeStore {
  readonly model: ReferenceModel;
  /** The store is unreachable (a fault hook of the subject). */
  broken = false;
  /** Records kept while the store is unreachable (bounded) and how many were dropped. */
  readonly buffered: { key: BucketKey; cost: number; limit: Limit | undefined; late: LateSend | undefined }[] = [];
  dropped = 0;

  constructor(flaws: FakeFlaws = {}) {
    this.model = new FakeModel(flaws);
  }

  /** Makes the store reachable again and applies each buffered record once. */
  repair(now: number): void {
    this.broken = false;
    for (const r of this.buffered.splice(0)) this.model.record(r.key, r.cost, r.limit, now, r.late);
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
