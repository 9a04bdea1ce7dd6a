/**
 * The rules of SPEC.md the suite tests, as data. Every rule here has at least one test whose title
 * starts with its id. RL-P6 (an HTTP client wrapper records every request it sends) is a property of
 * a host's HTTP client, not of a limiter, so it is listed with `level: 'host'` and not tested here.
 */
export const RULES = [
  { id: 'RL-K1', section: 'Keys and limits', rule: 'Buckets differing in venue, credential or axis are independent; the public pool is separate from every credential.' },
  { id: 'RL-K2', section: 'Keys and limits', rule: 'A key without an axis is the same bucket as the key with axis "request".' },
  { id: 'RL-K3', section: 'Keys and limits', rule: 'A credential never appears raw in errors, snapshots or storage key names; a one-way hash stands for it.' },
  { id: 'RL-L1', section: 'Keys and limits', rule: 'The three limit shapes ({capacity, refillPerSec}, {requests, periodMs}, {requests}) are equivalent.' },
  { id: 'RL-L2', section: 'Keys and limits', rule: 'An unlimited (null) limit admits at once and records nothing.' },
  { id: 'RL-L3', section: 'Keys and limits', rule: 'An invalid limit is refused with invalid_parameters; nothing changes.' },
  { id: 'RL-L4', section: 'Keys and limits', rule: 'Refill 0 is a fixed quota; a cost that can never be paid is refused at once with an error that says so.' },
  { id: 'RL-L5', section: 'Keys and limits', rule: 'A new definition for a live key keeps the amount already borrowed.' },
  { id: 'RL-A1', section: 'Admission', rule: 'Admitted when the bucket holds the cost; the cost is debited in the same step and honoured exactly.' },
  { id: 'RL-A2', section: 'Admission', rule: 'A negative, NaN or infinite cost is invalid_parameters; cost 0 is admitted and changes nothing.' },
  { id: 'RL-A3', section: 'Admission', rule: 'A refused probe answers delay with the exact wait (ms rounded up, at least 1) and changes nothing.' },
  { id: 'RL-A4', section: 'Admission', rule: 'Burst is capped at capacity after any idle time.' },
  { id: 'RL-A5', section: 'Admission', rule: 'A cost above capacity waits for the whole cost ((cost − capacity)/refill from full) and leaves the bucket at zero.' },
  { id: 'RL-A6', section: 'Admission', rule: 'In any interval [a, b] at most max(capacity, largest single cost) + refill·(b − a) is admitted.' },
  { id: 'RL-W1', section: 'Waiting and booking', rule: 'A wait within the budget books the cost now and names the send time.' },
  { id: 'RL-W2', section: 'Waiting and booking', rule: 'Booked cost belongs to its booker; later calls queue behind it; a heavy waiter is never starved.' },
  { id: 'RL-W3', section: 'Waiting and booking', rule: 'A wait beyond the budget books nothing and answers the required wait.' },
  { id: 'RL-W4', section: 'Waiting and booking', rule: 'Booking never lets anyone else burst above capacity.' },
  { id: 'RL-W5', section: 'Waiting and booking', rule: 'An aborted waiter returns its booking when nothing was charged after it; otherwise it is forfeited.' },
  { id: 'RL-W6', section: 'Waiting and booking', rule: 'waitForCapacity resolves ok at (not before) the send time, rate_limit_timeout, or aborted; budget default 10 000 ms, positive and finite.' },
  { id: 'RL-W7', section: 'Waiting and booking', rule: 'Waiting never polls; at most one timer per waiter; no timer left after close().' },
  { id: 'RL-M1', section: 'Several buckets at once', rule: 'checkRates is atomic: all buckets debited in one step or none.' },
  { id: 'RL-M2', section: 'Several buckets at once', rule: 'Repeated keys in one call are charged once at their combined cost.' },
  { id: 'RL-M3', section: 'Several buckets at once', rule: 'Two different definitions of one key in one call: invalid_parameters, nothing spent.' },
  { id: 'RL-M4', section: 'Several buckets at once', rule: 'The wait of a multi-bucket call is the largest among its buckets.' },
  { id: 'RL-M5', section: 'Several buckets at once', rule: 'A multi-bucket booking charges every bucket as of the common send time.' },
  { id: 'RL-R1', section: 'Recording, feedback, penalties', rule: 'record always debits (debt allowed), never throws, rejects or blocks.' },
  { id: 'RL-R2', section: 'Recording, feedback, penalties', rule: 'sync raises borrowed to at least what the venue reports; never lowers it.' },
  { id: 'RL-R3', section: 'Recording, feedback, penalties', rule: 'penalize admits nothing before untilMs and treats the bucket as empty then; never shortens a penalty.' },
  { id: 'RL-I1', section: 'Inspecting and resetting', rule: 'borrowed = capacity − tokens now, bookings included; 0 for an unknown key.' },
  { id: 'RL-I2', section: 'Inspecting and resetting', rule: 'reset forgets one bucket; resetVenue every bucket of a venue and no other; resetAll everything.' },
  { id: 'RL-I3', section: 'Inspecting and resetting', rule: 'snapshot lists live buckets with hashed credentials and their numbers.' },
  { id: 'RL-F1', section: 'Failures', rule: 'No admission method throws or rejects; an unreachable store answers backend_unavailable, never ok.' },
  { id: 'RL-F2', section: 'Failures', rule: 'Bad input never corrupts state or other buckets and never takes the limiter down.' },
  { id: 'RL-P1', section: 'The host contract', rule: 'check → ok | rate_limited(retryAfterMs) | error; the weight is honoured; it does not consume.' },
  { id: 'RL-P2', section: 'The host contract', rule: 'error means do not proceed; an implementation that cannot tell answers error, never ok.' },
  { id: 'RL-P3', section: 'The host contract', rule: 'acquire waits for room → ok | rate_limit_timeout | error; it does not consume.' },
  { id: 'RL-P4', section: 'The host contract', rule: 'record fills the bucket, cannot fail and never delays.' },
  { id: 'RL-P5', section: 'The host contract', rule: 'penalize holds the provider closed; never shortens a hold.' },
] as const;

/** A rule id the suite tests. */
export type RuleId = (typeof RULES)[number]['id'];

/** One entry of {@link RULES}. */
export type Rule = (typeof RULES)[number];

/** Rules of SPEC.md the suite leaves to other tests, and why. */
export const UNTESTED_RULES = [
  { id: 'RL-P6', reason: 'a property of a host HTTP client wrapper, not of a limiter' },
] as const;
