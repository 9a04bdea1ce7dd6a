/**
 * How fast the local clock and the server's may drift apart, at most: 1000 ppm, twice the largest
 * frequency correction NTP applies to one clock (500 ppm), so two corrected clocks stay within it.
 */
export const MAX_DRIFT = 1e-3;

/**
 * The server's clock seen from here: its offset (server time minus local time) from the replies that carry
 * the server's time. A reply's time was read on the server after the call left and before its reply
 * arrived, so the offset lies in [serverNow − receivedAt, serverNow − sentAt]. The estimate is the tightest
 * lower bound seen: a reply that waited in a queue (late by its queueing delay, tens to hundreds of ms under
 * load) no longer drags it down while a prompter reply's bound still holds.
 *
 * A kept bound ages by {@link MAX_DRIFT} per ms since its reply, so a clock drifting either way is followed
 * and the estimate stays a lower bound; a reply whose upper bound falls below the kept bound (the server's
 * clock stepped back, or another master with another clock answered) replaces it at once.
 *
 * O(1) and allocation-free per reply: two numbers kept.
 *
 * @example
 * ```ts
 * const clock = new ServerClock();
 * const sentAt = local.now();
 * const serverNow = await callThatReadsServerTime();
 * clock.note(serverNow, sentAt, local.now());
 * const serverTimeNow = local.now() + clock.offset(local.now());
 * ```
 */
export class ServerClock {
  /** The tightest lower bound of the offset, as of {@link ServerClock.#lowAt} (−Infinity before any reply). */
  #low = Number.NEGATIVE_INFINITY;
  /** The local time of the reply that gave {@link ServerClock.#low}. */
  #lowAt = 0;

  /** Takes one reply's bounds: `serverNow` read on the server between `sentAt` and `receivedAt` (local times). */
  note(serverNow: number, sentAt: number, receivedAt: number): void {
    const low = serverNow - receivedAt;
    const kept = this.#low - MAX_DRIFT * (receivedAt - this.#lowAt);
    // tighter than the kept bound, or the kept bound lies above this reply's upper bound: take this reply's
    if (low >= kept || kept > serverNow - sentAt) {
      this.#low = low;
      this.#lowAt = receivedAt;
    }
  }

  /** The estimated offset at local time `now`: a lower bound of the true one (0 before any reply). */
  offset(now: number): number {
    const low = this.#low;
    return low === Number.NEGATIVE_INFINITY ? 0 : low - MAX_DRIFT * (now - this.#lowAt);
  }
}
