/**
 * One live bucket, as a budget panel shows it.
 *
 * @remarks RL-I3, RL-K3: the credential appears only as its one-way hash.
 */
export interface BucketSnapshot {
  readonly venue: string;
  /** The hashed credential (hex), or `null` for the public pool. */
  readonly credentialHash: string | null;
  readonly axis: string;
  readonly capacity: number;
  readonly refillPerSec: number;
  /** Tokens available now (negative while the bucket is in debt after records or syncs). */
  readonly tokens: number;
  /** capacity − tokens (RL-I1). */
  readonly borrowed: number;
  /**
   * For a window limit (RL-V1): its window in ms; `capacity` is then `perWindow`, `refillPerSec` its long-run
   * rate (`perWindow` per window), `borrowed` the most any window from now on holds (bookings included).
   */
  readonly windowMs?: number;
  /** For a window limit: its jitter allowance in ms (how late a send may reach the venue). */
  readonly jitterMs?: number;
  /**
   * For a window limit: the cost it counts in the window ending now (`(now − windowMs, now]`): its sends by
   * send time and its records (RL-R1: a charge known after the send, a send counted again because it may
   * have reached the venue late), bookings ahead and others' reported use left out; after a fixed window's
   * report, only that window. At least what the venue counts of this limiter's sends.
   */
  readonly counted?: number;
  /** The end of a penalty hold, in the limiter's clock, when one is in force. */
  readonly heldUntilMs?: number;
}
