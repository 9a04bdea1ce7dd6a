// Generated from RULEBOOK.md (in @core/rate-limit-contract) by `pnpm --filter @core/rate-limit-conformance rulebook`.
// Do not edit: change the rulebook and regenerate; a test fails while this file is stale.

/**
 * The rules the suite tests, as data, in the rulebook's order and words. Every rule here has at least
 * one test whose title starts with its id.
 */
export const RULES = [
  {
    id: 'RL-K1',
    section: 'Keys and limits',
    rule: "Two keys that differ in venue, in credential or in axis name two buckets that never affect each other; the public pool (`credential: null`) is a bucket apart from every credential's.",
  },
  { id: 'RL-K2', section: 'Keys and limits', rule: 'Leaving out the axis is the same as writing axis `"request"`: both name one bucket.' },
  {
    id: 'RL-K3',
    section: 'Keys and limits',
    rule: 'A credential is a secret: no error, log line, metric, snapshot or storage key name shows it; they show a one-way hash of it (SHA-256, keyed with a configured secret when one is given), computed alike in every process that shares the buckets.',
  },
  {
    id: 'RL-L1',
    section: 'Keys and limits',
    rule: '`{ requests, periodMs }` is capacity `requests` refilled at `requests / (periodMs / 1000)` per second, and `{ requests }` is the same with a period of 1000 ms: the three shapes describe one bucket alike.',
  },
  {
    id: 'RL-L2',
    section: 'Keys and limits',
    rule: 'Only an explicit `null` limit is unlimited: such a check is admitted at once and nothing is recorded for it. A check whose limit is left out (absent or `undefined`) is refused with `invalid_parameters`, so a forgotten limit never passes for "no limit".',
  },
  {
    id: 'RL-L3',
    section: 'Keys and limits',
    rule: 'A limit of no known shape, or with a capacity of 0 or less, a negative refill, a period of 0 or less, a `perWindow` or `windowMs` of 0 or less, a negative `jitterMs`, or a number that is NaN or infinite, is refused with `invalid_parameters`, and nothing changes.',
  },
  {
    id: 'RL-L4',
    section: 'Keys and limits',
    rule: 'A refill of 0 makes a fixed quota, which never refills. A cost the quota can never pay is refused at once with `cost_unpayable` and a message that says why, naming the bucket by its path in the call (`checks[i]`), its venue and its axis; it is never answered with an endless or made-up delay.',
  },
  {
    id: 'RL-L5',
    section: 'Keys and limits',
    rule: 'When a live bucket gets a new definition, what it has borrowed carries over into the new one (converted, not reset), also between a token bucket and a window limit.',
  },
  {
    id: 'RL-A1',
    section: 'Admission',
    rule: 'A request is admitted when its bucket holds its whole cost: the cost is taken in the same atomic step as the decision, which answers `ok`. The cost is charged as given: a cost of 10 is never treated as 1.',
  },
  {
    id: 'RL-A2',
    section: 'Admission',
    rule: 'A cost that is negative, NaN or infinite is refused with `invalid_parameters` and changes nothing; a cost of 0 is admitted and changes nothing.',
  },
  {
    id: 'RL-A3',
    section: 'Admission',
    rule: 'A probe that cannot be admitted now answers `delay` with the exact wait, rounded up to whole milliseconds and at least 1, and leaves everything as it was: nothing spent, no accrual banked, no definition rewritten.',
  },
  { id: 'RL-A4', section: 'Admission', rule: 'However long a bucket stays idle, at most its capacity is admitted without waiting.' },
  {
    id: 'RL-A5',
    section: 'Admission',
    rule: 'A cost larger than the capacity gets no exemption: it is admitted only once the bucket has accrued all of it, and it leaves the bucket empty; from a full bucket it waits `(cost − capacity) / refill`.',
  },
  {
    id: 'RL-A6',
    section: 'Admission',
    rule: 'Safety: whatever the interleaving of calls, callers and processes, while one definition holds and nothing is reset, the cost admitted on a token bucket in any interval `[a, b]` (a booking counted at its send time) is at most `max(capacity, largest single cost in [a, b]) + refill · (b − a)` (a window limit keeps RL-V1). Records, syncs and penalties only ever lower what is admitted.',
  },
  {
    id: 'RL-A7',
    section: 'Admission',
    rule: "Comparisons with a bucket's capacity allow a tolerance relative to that bucket (a billionth of it), never a fixed one, so a bucket of capacity 1e-9 admits no more than a bucket of capacity 1 scaled down. A cost whose wait cannot be represented (more than 1e15 ms ahead, or overflowing to infinity, as cost 1e308 does at refill 1) is refused with `cost_unpayable` and a message that says the wait cannot be represented, never with `internal`, and alike by every implementation.",
  },
  {
    id: 'RL-W1',
    section: 'Waiting and booking',
    rule: 'A caller ready to wait passes a budget (`maxWaitMs`). When the wait fits the budget the call books: the cost is charged now against the bucket\'s future, and the answer is `booked`, with `sendAtMs`, the time from which the caller may send, and `waitMs`, exactly `sendAtMs` minus the time of the decision (never rounded). Nothing else is needed before sending, and sending earlier is a bug. `ok` always means "send now", so a booking never looks like one to a caller that reads only the kind; only a `delay`\'s `retryAfterMs` is rounded up.',
  },
  {
    id: 'RL-W2',
    section: 'Waiting and booking',
    rule: "A booking's cost belongs to whoever booked it: every later call, cheap or heavy, from any process, waits behind it in booking order, so cheap traffic never starves a heavy waiter.",
  },
  {
    id: 'RL-W3',
    section: 'Waiting and booking',
    rule: 'When the wait is longer than the budget, nothing is booked and the answer gives the wait that would be needed.',
  },
  { id: 'RL-W4', section: 'Waiting and booking', rule: 'Bookings never let anybody else send more than the capacity at once.' },
  {
    id: 'RL-W5',
    section: 'Waiting and booking',
    rule: 'A waiter that gives up (its AbortSignal fires) before its send time gets its booking returned when nothing was written to the bucket after it (a charge, a record, a sync, a penalty, or the return of a later booking); otherwise its slot is forfeited, since returning it would let later bookings overlap. The `aborted` answer says which happened, and a cancellation never admits more than RL-A6 allows.',
  },
  {
    id: 'RL-W6',
    section: 'Waiting and booking',
    rule: '`waitForCapacity` resolves `ok` at its send time and not before; or `rate_limit_timeout` with the needed wait when that exceeds the budget (nothing is spent); or `aborted`. The budget is 10 000 ms unless given, and must be a finite number above 0.',
  },
  {
    id: 'RL-W7',
    section: 'Waiting and booking',
    rule: 'Waiting never polls: each waiter has at most one timer, and no timer keeps the process alive once the limiter is closed.',
  },
  {
    id: 'RL-M1',
    section: 'Several buckets at once',
    rule: '`checkRates` is all or nothing: it answers `ok` only when every bucket can pay, and charges them all in one step; otherwise no bucket is charged and nothing else changes.',
  },
  {
    id: 'RL-M2',
    section: 'Several buckets at once',
    rule: 'When one call names a bucket more than once, the bucket is charged once, for the sum of those costs.',
  },
  {
    id: 'RL-M3',
    section: 'Several buckets at once',
    rule: 'A call that gives one bucket two different definitions is refused with `invalid_parameters`, and nothing is spent.',
  },
  {
    id: 'RL-M4',
    section: 'Several buckets at once',
    rule: 'A call over several buckets waits as long as its slowest bucket: its wait is the largest of theirs.',
  },
  {
    id: 'RL-M5',
    section: 'Several buckets at once',
    rule: 'A booking over several buckets charges each of them as of the common send time, so a bucket that was not the bottleneck is not charged early (which would let others overspend it later).',
  },
  {
    id: 'RL-R1',
    section: 'Recording, feedback, penalties',
    rule: '`record(key, cost)` reports a cost that was sent without asking the limiter. It always charges, into debt if need be (later callers wait it out); it never throws, rejects or holds up its caller. When the store cannot be reached it keeps records in a bounded buffer and counts what it has to drop. Each record is applied exactly once, also when a delivery is retried after a timeout (the store may have been slow, not gone). A huge finite cost is applied, clamped to what the store can hold, never dropped or answered with `internal`.',
  },
  {
    id: 'RL-R2',
    section: 'Recording, feedback, penalties',
    rule: "`sync(key, limit, minBorrowed)` raises the bucket's borrowed amount to at least what the venue reports (in its response headers); it never lowers it, except where a window limit's newer report replaces an older one it covers (RL-V5).",
  },
  {
    id: 'RL-R3',
    section: 'Recording, feedback, penalties',
    rule: "`penalize(key, hold)` admits nothing on the bucket before the hold ends (a `Retry-After`, an IP ban) and treats the bucket as empty at that moment; a new penalty never shortens a hold in force. A hold outlives a new definition of the bucket (which converts the borrowed amount, RL-L5, but never lifts the hold) and a `sync`. A hold on a bucket not defined yet is kept until its first definition (in a shared store, for at least 24 hours after the hold ends), and that definition starts the bucket empty as of the hold's end.",
  },
  {
    id: 'RL-V1',
    section: 'Window limits',
    rule: "Whatever the interleaving of calls, callers and processes, a window limit admits at most `perWindow` of cost whose send times fall in any interval `(T − windowMs − jitterMs, T]`, records counted, not counting what a sync forgot (RL-V5). Since a request reaches the venue at most `jitterMs` after its send time, this keeps the venue's rolling windows and its fixed windows, aligned or anchored.",
  },
  {
    id: 'RL-V2',
    section: 'Window limits',
    rule: 'A probe on a window limit that cannot be admitted now answers the wait to the earliest time at which the limiter admits the cost, bookings included; a call with a budget books it then. A later call, cheap or heavy, from any process, never takes what a booking holds. Budgets, waits and cancellations are as for token buckets (RL-W1 to RL-W7). A record counts its cost as sent now, even beyond the limit, and later sends wait it out. A penalty admits nothing before its end and counts the window full then: the next send waits at least `windowMs + jitterMs` after the end.',
  },
  {
    id: 'RL-V3',
    section: 'Window limits',
    rule: 'A cost above `perWindow` can never be paid: it is refused at once with `cost_unpayable`, naming the bucket by its path in the call, its venue and its axis, and saying that a window holds at most `perWindow`; never with a delay.',
  },
  {
    id: 'RL-V4',
    section: 'Window limits',
    rule: 'One atomic call may mix window limits and token buckets: it has one common send time, the earliest at which every bucket can pay (a window limit may push it past the times that bookings close), and every bucket is charged as of that time, or nothing is charged anywhere.',
  },
  {
    id: 'RL-V5',
    section: 'Window limits',
    rule: "`sync(key, limit, used, { sentAtMs?, countedOwnCost?, windowEnd? })`: the venue counted `used` in its window on counting the request sent at `sentAtMs`, by `c = min(sentAtMs + jitterMs, now)`. Others' use, `used − max(what the limiter knows surely counted, countedOwnCost)`, counts as sent at `c − jitterMs`: two lower bounds of this deployment's part, never summed (the limiter's: its sends surely in that window, `jitterMs` or more before `sentAtMs`). A newer report replaces one the venue counted before its request was sent, else the larger counts. Without a `sentAtMs` up to now, nothing is taken as counted. A `windowEnd` narrower than `windowMs / 4` says the window is fixed: what reached the venue before it began, and from its end on what reached it before that end, is forgotten; a report of a window ended before the latest one began is ignored. Bad options: `invalid_parameters` naming their path.",
  },
  {
    id: 'RL-V6',
    section: 'Window limits',
    rule: 'Each implementation states its memory per bucket and its utilization: in steady saturation on a rolling window, with no reports, it admits at least `U · perWindow` per `windowMs` over time, `U = windowMs / (windowMs + jitterMs)` for an exact log and `K / (ceil(K · (1 + jitterMs / windowMs)) + 1)` for slots of `windowMs / K` (the slot ledger keeps `K = 64` and at most `ceil(64 · (1 + jitterMs / windowMs)) + 1` slots behind now, plus one per slot holding a booking). No limiter safe on rolling windows exceeds `windowMs / (windowMs + jitterMs)`.',
  },
  {
    id: 'RL-Q1',
    section: 'Priorities',
    rule: "A higher class never waits behind a lower class's bookings: a call goes at once when no booking of its own class or a higher one lies ahead and its cost fits under its line at every instant ahead, bookings of every class included (on a window limit: in every window containing its send, every send of every class counted). With lower-class bookings filling a bucket to their line as far ahead as they reach, a critical call finds the lower class's reserve free at once (bulk's 20 % by default), and a normal call what lies between its line and bulk's; only higher-class traffic, records, syncs and penalties can use that room.",
  },
  {
    id: 'RL-Q2',
    section: 'Priorities',
    rule: "Within a class every earlier rule holds: a call never goes at once while a booking of its own class or a higher one lies ahead (it books behind them, RL-W2; on a window limit it goes where its windows have room, RL-V2), probes, bookings, waits, budgets, cancellations and multi-bucket calls behave as in the sections above, and a call that names no class is a normal call with the limiter's normal share.",
  },
  {
    id: 'RL-Q3',
    section: 'Priorities',
    rule: 'RL-A6 holds for the sum of all classes: whatever the mix of classes, reserves, bookings, waits, cancellations, records, syncs and penalties, the cost admitted on a token bucket in any interval `[a, b]` is at most `max(capacity, largest single cost in [a, b]) + refill · (b − a)`, and a window limit keeps RL-V1.',
  },
  {
    id: 'RL-Q4',
    section: 'Priorities',
    rule: "The reserve costs a lower class only what it keeps free: a class with share `r`, alone on a bucket, gets a burst of `(1 − r) · capacity` and then the full refill rate; on a window limit `(1 − r) · perWindow` per window, every send of every class counted against its line; on a fixed quota `(1 − r) · capacity`, beyond which its cost is refused with `cost_unpayable` while higher classes may still spend the rest. A single cost above its class's line is never refused or held back for the reserve: its line is raised to the cost (up to the capacity), so it waits for room for all of it, as without classes.",
  },
  {
    id: 'RL-Q5',
    section: 'Priorities',
    rule: "`priority` is `'critical'`, `'normal'` or `'bulk'`, and each share of a reserve a finite number in `[0, 1)` with `normal ≤ bulk`; anything else is refused with `invalid_parameters` naming the option (`options.priority`, `options.reserve.bulk`) and changes nothing. A limiter whose `capabilities.priorities` is not `true` answers `not_supported` to every call that names a priority or a reserve, whatever the other arguments, never admitting it as if it named none.",
  },
  {
    id: 'RL-Q6',
    section: 'Priorities',
    rule: "A check may name its own reserve: on that bucket the call's class spends only up to the line that reserve sets, while the call's other buckets keep the call's, so one call can keep room on a shared bucket for critical requests and spend a bucket no critical request uses to its end. A share the check leaves out takes the call's (then the limiter's); a key repeated in one call keeps the largest share any of its checks leaves free. A check's reserve is read like the call's and refused the same way, naming it (`checks[1].reserve.bulk`); a limiter without `capabilities.priorities` answers `not_supported` to a call with one (RL-Q5).",
  },
  {
    id: 'RL-I1',
    section: 'Inspecting and resetting',
    rule: '`borrowed(key)` is the capacity minus the tokens left now, bookings included (for a window limit: the most any window from now on holds, bookings included); for a key never seen it is 0.',
  },
  {
    id: 'RL-I2',
    section: 'Inspecting and resetting',
    rule: '`reset(key)` forgets one bucket; `resetVenue(venue)` forgets every bucket of that venue, all credentials and axes, and no other; `resetAll()` forgets every bucket.',
  },
  {
    id: 'RL-I3',
    section: 'Inspecting and resetting',
    rule: '`snapshot()` lists the live buckets for a budget panel: venue, hashed credential, axis, capacity, refill, tokens and borrowed; a window limit also shows its `windowMs`, with `perWindow` as its capacity and `perWindow` per `windowMs` as its refill.',
  },
  {
    id: 'RL-F1',
    section: 'Failures',
    rule: 'No admission method throws or rejects: each resolves to `ok`, `booked`, `delay` or a typed error with a stable `code` and a plain message (numbers with at most 12 significant digits, a float residue shown as 0). A store that cannot be reached, or answers too late, gives `backend_unavailable`, never `ok`: not knowing is not having room.',
  },
  {
    id: 'RL-F2',
    section: 'Failures',
    rule: "Bad input never corrupts state, never touches other buckets and never takes the limiter down. Input that cannot even be read (a getter or Proxy that throws) is `invalid_parameters`, not `internal`, and no answer repeats the thrown error's text. An operation whose capability is `false` answers `not_supported`, whatever its arguments, and so does every call that gives a window limit to a limiter whose `capabilities.windowLimits` is `false`.",
  },
  {
    id: 'RL-P1',
    section: 'The host contract',
    rule: '`check(provider, weight, options)` answers `ok`, `rate_limited` with `retryAfterMs`, or an error; it honours the weight and consumes nothing.',
  },
  {
    id: 'RL-P2',
    section: 'The host contract',
    rule: 'An error means "do not proceed", and an implementation that cannot tell answers an error, never `ok`. Errors name the provider call\'s own arguments (`provider`, `weight`, `options.timeoutMs`, …), and `null` options are refused as the limiter refuses them.',
  },
  {
    id: 'RL-P3',
    section: 'The host contract',
    rule: '`acquire(provider, weight, { timeoutMs, signal })` waits until there is room for the weight and answers `ok`, `rate_limit_timeout` or another error; it consumes nothing.',
  },
  { id: 'RL-P4', section: 'The host contract', rule: '`record(provider, weight)` charges the bucket, cannot fail and never delays the request.' },
  {
    id: 'RL-P5',
    section: 'The host contract',
    rule: '`penalize(provider, retryAfterMs)` holds the provider closed and never shortens a hold; it answers `ok`, or an error that says why the penalty was not applied, never nothing.',
  },
] as const;

/** A rule id the suite tests. */
export type RuleId = (typeof RULES)[number]['id'];

/** One entry of {@link RULES}. */
export type Rule = (typeof RULES)[number];

/** Rules of the rulebook the suite leaves to other tests, and why. */
export const UNTESTED_RULES = [
  {
    id: 'RL-P6',
    section: 'The host contract',
    rule: "An HTTP client wrapper records every request it sends on the adapter's behalf (retries and 429 answers included), so an adapter cannot forget to record.",
    reason: "A property of a host's HTTP client wrapper, not of a limiter: the suite cannot see it.",
  },
] as const;
