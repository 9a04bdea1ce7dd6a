import type { BucketCheck, RateLimiter, SyncOptions } from '@core/rate-limit-contract';
import { bucketKeyId as ownKey, type Feedback, type FeedbackSync } from '@core/exchange-specs';
import type { HeldCharge } from './in-flight-ledger.js';

/** Records deferred charges the venue applied, and on a shared store waits until the store has them (before their ledger entries go). */
export async function recordDeferred(limiter: RateLimiter, checks: readonly BucketCheck[]): Promise<void> {
  for (const c of checks) limiter.record(c.key, c.cost, c.limit);
  if (!limiter.capabilities.distributed) return;
  // A later call on the same store is applied after the records sent before it.
  for (const c of checks) await limiter.borrowed(c.key);
}

type SyncAnswer = Awaited<ReturnType<RateLimiter['sync']>>;

/**
 * One usage report to the limiter. A window limit's says (RL-V5) when this request was sent (`keptAt`, the store's
 * send time, when it was admitted), what this fetch knows the venue counted of its own in the window, and the
 * window's end when it tells it: the store knows what this deployment sent.
 */
function syncOne(limiter: RateLimiter, s: FeedbackSync, admittedAt: number | undefined, keptAt: number): Promise<SyncAnswer> {
  if (s.windowElapsedMs === undefined || admittedAt === undefined) return limiter.sync(s.key, s.limit, s.minBorrowed, undefined);
  const report: SyncOptions = {
    sentAtMs: keptAt,
    ...(s.countedOwnCost === undefined ? {} : { countedOwnCost: s.countedOwnCost }),
    ...(s.outsideOwnCost === undefined ? {} : { outsideOwnCost: s.outsideOwnCost }),
    // the window's end, however loosely known: it bounds when the window began (RL-V5)
    ...(s.windowEnd === undefined ? {} : { windowEnd: s.windowEnd }),
  };
  return limiter.sync(s.key, s.limit, s.minBorrowed, report);
}

/** What the limiter made of an answer's feedback (see `AttemptEvent`). */
export interface Applied {
  readonly feedbackErrors: readonly string[];
  readonly feedbackApplied: { readonly syncs: number; readonly penalties: number };
}

/**
 * Applies what an answer means to the limiter: response-size costs and the deferred charges the venue applied
 * (records), usage reports (syncs; a window limit's with the request's send time as the store keeps it, `keptAt`,
 * when it was admitted), refusals and bans (penalties).
 */
export async function applyFeedback(
  limiter: RateLimiter,
  feedback: Feedback,
  held: readonly HeldCharge[],
  admittedAt: number | undefined,
  keptAt: number,
): Promise<Applied> {
  const feedbackErrors: string[] = [];
  const feedbackApplied = { syncs: 0, penalties: 0 };
  for (const c of feedback.extraChecks ?? []) limiter.record(c.key, c.cost, c.limit);
  // the deferred charges the venue applied (a failed order's weight); those reserved at admission are not among them
  const recorded =
    feedback.deferred === undefined || held.length === 0 ? [] : feedback.deferred.filter((c) => held.some((h) => ownKey(h.key) === ownKey(c.key)));
  if (recorded.length > 0) await recordDeferred(limiter, recorded);
  // (one sync, the common answer, awaited as it is: no promise more per answer)
  const { syncs } = feedback;
  const synced: readonly SyncAnswer[] =
    syncs.length === 0
      ? []
      : syncs.length === 1
        ? [await syncOne(limiter, syncs[0] as FeedbackSync, admittedAt, keptAt)]
        : await Promise.all(syncs.map((s) => syncOne(limiter, s, admittedAt, keptAt)));
  for (let i = 0; i < synced.length; i++) {
    const r = synced[i] as SyncAnswer;
    if (r.kind !== 'error') feedbackApplied.syncs++;
    else feedbackErrors.push(`sync ${(syncs[i] as FeedbackSync).key.axis ?? 'request'}: ${r.error.code}: ${r.error.message}`);
  }
  for (const p of feedback.penalties) {
    const r = await limiter.penalize(p.key, p.hold);
    if (r.kind === 'error') feedbackErrors.push(`penalize ${p.key.axis ?? 'request'}: ${r.error.code}: ${r.error.message}`);
    else feedbackApplied.penalties++;
  }
  return { feedbackErrors, feedbackApplied };
}
