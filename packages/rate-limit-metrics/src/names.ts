/**
 * The names of every instrument and attribute, in OpenTelemetry's semantic-convention style: a
 * namespace (`rate_limit`), dot-separated lower-case components, counters named by what they count
 * (the Prometheus exporter appends `_total`), durations in seconds, counts with a `{…}` annotation.
 */

/** The instrumentation scope (the meter's name). */
export const METER_NAME = '@core/rate-limit-metrics';

/** Instrument names. */
export const METRIC = {
  /** Counter `{decision}`: answers of admission calls, one per distinct bucket of the call. */
  decisions: 'rate_limit.decisions',
  /** Histogram `s`: `waitForCapacity`, from the call to its answer. */
  waitDuration: 'rate_limit.wait.duration',
  /** Histogram `s`: a `booked` answer's wait (its send time minus the decision's time). */
  bookingLead: 'rate_limit.booking.lead',
  /** Counter `{call}`: answers `backend_unavailable` (the store failed closed), by operation. */
  backendUnavailable: 'rate_limit.backend.unavailable',
  /** Gauge `{token}`: a live bucket's borrowed amount (capacity minus tokens, bookings included). */
  bucketBorrowed: 'rate_limit.bucket.borrowed',
  /** Gauge `{token}`: a live bucket's capacity (the limit the limiter enforces). */
  bucketCapacity: 'rate_limit.bucket.capacity',
  /** Gauge `{token}`: the venue's documented limit a live bucket keeps under (per window, or a token bucket's capacity), the tier in force. */
  bucketLimit: 'rate_limit.bucket.limit',
  /** Gauge `{token}`: what a live window limit counts in the window ending now (sends and records). */
  bucketCounted: 'rate_limit.bucket.counted',
  /** Gauge `1`: a live window limit's counted over its documented limit, the demo's utilization read live. */
  bucketUtilization: 'rate_limit.bucket.utilization',
  /** Gauge `{bucket}`: live buckets in the store (also those beyond `maxBucketSeries`). */
  buckets: 'rate_limit.buckets',
  /** Gauge `{record}`: records waiting in the record buffer for the store. */
  recordBufferDepth: 'rate_limit.record.buffer.depth',
  /** Counter `{record}` (observed): records dropped (buffer full, invalid input, limiter closed). */
  recordsDropped: 'rate_limit.record.dropped',
  /** Counter `{request}`: requests a paced client sent, by the venue's verdict. */
  clientRequests: 'rate_limit.client.requests',
  /** Counter `{feedback}`: syncs and penalties a paced client applied from the venue's answers. */
  clientFeedback: 'rate_limit.client.feedback',
  /** Histogram `s`: how long a paced client's request waited for its send time. */
  clientWaitDuration: 'rate_limit.client.wait.duration',
} as const;

/** Attribute keys. */
export const ATTR = {
  /** The bucket's venue (`binance-spot`, `okx`, ...). */
  venue: 'rate_limit.venue',
  /** The bucket's axis (`ip`, `orders_10s`, `trade/order:BTC-USDT`, ...). */
  axis: 'rate_limit.axis',
  /** The method: `check_rate`, `check_rates`, `peek`, `wait_for_capacity`, `snapshot`, ... */
  operation: 'rate_limit.operation',
  /** The answer's kind: `ok`, `booked`, `delay` or `error`. */
  decision: 'rate_limit.decision',
  /** The error code of an `error` answer (`cost_unpayable`, `rate_limit_timeout`, `backend_unavailable`, ...). */
  errorType: 'error.type',
  /** A live bucket's credential as the first 12 hex digits of its one-way hash (absent for the public pool). */
  credentialHash: 'rate_limit.credential.hash',
  /** The venue's tier whose limit a bucket keeps under (absent for the spec's default tier). */
  tier: 'rate_limit.tier',
  /** A paced client's request: what the venue answered (`ok`, `refused`, `banned`, `overloaded`, `error`). */
  venueVerdict: 'rate_limit.venue.verdict',
  /** A paced client's feedback: `sync` or `penalty`. */
  feedbackKind: 'rate_limit.feedback.kind',
  /** Whether the limiter applied the feedback: `applied` or `failed`. */
  feedbackOutcome: 'rate_limit.feedback.outcome',
} as const;

/** The suffix of a paced client's internal pacing bucket (paced-fetch's `paceAxis`: `<axis>/pace`). */
const PACING_SUFFIX = '/pace';

/**
 * Whether an axis is a paced client's internal pacing bucket: it spreads a window limit's sends and is no
 * limit of the venue, so it gets no series (its decisions are its limit's, counted there).
 */
export function isPacingAxis(axis: string): boolean {
  return axis.endsWith(PACING_SUFFIX);
}

/** The `axis` attribute of buckets beyond the `maxSeries` bound (their venue is kept). */
export const OTHER_AXIS = '_other';

/** Histogram boundaries in seconds for waits and booking leads (1 ms to 2 min). */
export const WAIT_BOUNDARIES_S: readonly number[] = [0, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** Operation names as attribute values (snake case, like semantic conventions' enumerations). */
export const OPERATION = {
  checkRate: 'check_rate',
  checkRates: 'check_rates',
  peek: 'peek',
  waitForCapacity: 'wait_for_capacity',
  record: 'record',
  sync: 'sync',
  penalize: 'penalize',
  borrowed: 'borrowed',
  reset: 'reset',
  resetVenue: 'reset_venue',
  resetAll: 'reset_all',
  snapshot: 'snapshot',
} as const;

/** A method of the contract's `RateLimiter` that answers a result. */
export type OperationName = keyof typeof OPERATION;
