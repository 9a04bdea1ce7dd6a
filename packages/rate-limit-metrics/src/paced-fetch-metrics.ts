import type { Attributes } from '@opentelemetry/api';
import { meterOf, type MeterChoice } from './meter-of.js';
import { ATTR, METRIC, WAIT_BOUNDARIES_S } from './names.js';

/**
 * What a paced client reports after each attempt it sent: the fields of `@core/paced-fetch`'s
 * `AttemptEvent` these metrics read (so this package does not depend on paced-fetch).
 */
export interface PacedAttempt {
  /** The venue's spec id. */
  readonly venue: string;
  /** How long the attempt waited for its send time, ms. */
  readonly waitedMs: number;
  readonly feedback: {
    /** What the venue's answer meant: `ok`, `rate_limited`, `banned`, `overloaded` or `error`. */
    readonly verdict: string;
    readonly syncs: readonly unknown[];
    readonly penalties: readonly unknown[];
  };
  /** How many of the syncs and penalties the limiter applied. */
  readonly feedbackApplied: { readonly syncs: number; readonly penalties: number };
}

/** Options of {@link pacedFetchMetrics}. */
export interface PacedFetchMetricsOptions extends MeterChoice {
  /** At most this many venues get series of their own (further ones are `_other`). Default 100. */
  readonly maxVenues?: number;
}

/** The verdict attribute: `rate_limited` is reported as `refused`. */
function verdictOf(v: string): string {
  switch (v) {
    case 'ok':
    case 'banned':
    case 'overloaded':
      return v;
    case 'rate_limited':
      return 'refused';
    default:
      return 'error';
  }
}

interface VenueSeries {
  readonly verdicts: Map<string, Attributes>;
  readonly syncApplied: Attributes;
  readonly syncFailed: Attributes;
  readonly penaltyApplied: Attributes;
  readonly penaltyFailed: Attributes;
  readonly wait: Attributes;
}

/**
 * The metrics of paced clients (`@core/paced-fetch`): requests sent by the venue's verdict (`ok`,
 * `refused`, `banned`, `overloaded`, `error`), the feedback applied (syncs and penalties, applied or
 * failed) and each request's wait for its send time. Pass the result as `onAttempt` (or call it from
 * yours). It records nothing, at the cost of one call per request, when no meter would record
 * (`@opentelemetry/api` not installed, or no provider given or registered).
 *
 * @example
 * ```ts
 * import { createDefaultRateLimiter } from '@core/default-rate-limiter';
 * import { createPacedFetch } from '@core/paced-fetch';
 * import { pacedFetchMetrics } from '@core/rate-limit-metrics';
 *
 * const okx = createPacedFetch({ venue: 'okx', identity: { credential: null }, limiter: createDefaultRateLimiter(), onAttempt: pacedFetchMetrics() });
 * ```
 */
export function pacedFetchMetrics(options: PacedFetchMetricsOptions = {}): (event: PacedAttempt) => void {
  const meter = meterOf(options);
  if (meter === undefined) return () => undefined;
  const maxVenues = options.maxVenues ?? 100;
  const requests = meter.createCounter(METRIC.clientRequests, { description: 'Requests a paced client sent, by what the venue answered.', unit: '{request}' });
  const feedback = meter.createCounter(METRIC.clientFeedback, {
    description: "Syncs and penalties a paced client applied to its limiter from the venue's answers.",
    unit: '{feedback}',
  });
  const wait = meter.createHistogram(METRIC.clientWaitDuration, {
    description: "How long a paced client's request waited for its send time.",
    unit: 's',
    advice: { explicitBucketBoundaries: [...WAIT_BOUNDARIES_S] },
  });
  const venues = new Map<string, VenueSeries>();
  const seriesOf = (venue: string): VenueSeries => {
    const name = venues.has(venue) || venues.size < maxVenues ? venue : '_other';
    let s = venues.get(name);
    if (s === undefined) {
      const fb = (kind: string, outcome: string): Attributes => ({ [ATTR.venue]: name, [ATTR.feedbackKind]: kind, [ATTR.feedbackOutcome]: outcome });
      s = {
        verdicts: new Map(),
        syncApplied: fb('sync', 'applied'),
        syncFailed: fb('sync', 'failed'),
        penaltyApplied: fb('penalty', 'applied'),
        penaltyFailed: fb('penalty', 'failed'),
        wait: { [ATTR.venue]: name },
      };
      venues.set(name, s);
    }
    return s;
  };
  return (event: PacedAttempt): void => {
    try {
      const s = seriesOf(event.venue);
      const verdict = verdictOf(event.feedback.verdict);
      let attrs = s.verdicts.get(verdict);
      if (attrs === undefined) {
        attrs = { [ATTR.venue]: s.wait[ATTR.venue] as string, [ATTR.venueVerdict]: verdict };
        s.verdicts.set(verdict, attrs);
      }
      requests.add(1, attrs);
      const { syncs, penalties } = event.feedbackApplied;
      if (syncs > 0) feedback.add(syncs, s.syncApplied);
      if (event.feedback.syncs.length > syncs) feedback.add(event.feedback.syncs.length - syncs, s.syncFailed);
      if (penalties > 0) feedback.add(penalties, s.penaltyApplied);
      if (event.feedback.penalties.length > penalties) feedback.add(event.feedback.penalties.length - penalties, s.penaltyFailed);
      wait.record(Math.max(0, event.waitedMs) / 1000, s.wait);
    } catch {
      // metrics never disturb the client
    }
  };
}
