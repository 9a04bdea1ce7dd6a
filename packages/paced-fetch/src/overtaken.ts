import type { BucketCheck, RateLimiter } from '@core/rate-limit-contract';

/** The most a booked send is booked again when its window limits turn out overcommitted at its send time. */
const MAX_REBOOKINGS = 2;

/**
 * The window limits among a booked send's checks that hold more than their limit now that its time has come: a
 * send before it was counted again since it booked (its answer came so late that it may have reached the venue
 * late, or it went out late), or cost was recorded or reported. The limiter's `borrowed` is the most any window
 * from now on holds, this send's own booking included, so more than `perWindow` means the windows around it are
 * overcommitted; sent now, it could be one too many at the venue.
 */
async function overcommitted(limiter: RateLimiter, checks: readonly BucketCheck[]): Promise<BucketCheck[]> {
  const windows = checks.filter((c) => c.limit !== null && 'perWindow' in c.limit && c.cost > 0);
  if (windows.length === 0) return [];
  // asked all at once: on a shared store each is a round trip, and a critical send waits for the answers
  const borrowed = await Promise.all(
    windows.map((c) =>
      // (a limiter that breaks the contract and throws cannot tell: the booking stands)
      Promise.resolve()
        .then(() => limiter.borrowed(c.key))
        .catch(() => undefined),
    ),
  );
  return windows.filter((c, i) => {
    const b = borrowed[i];
    return typeof b === 'number' && b > (c.limit as { readonly perWindow: number }).perWindow * (1 + 1e-9);
  });
}

/**
 * A booked send whose window limits are overcommitted when its time comes books them again with `rebook` (its first
 * booking stays charged: counted twice, never too little), which waits for the new time within the budget and
 * answers it. Answers the send time the send goes at, or throws what `rebook` throws.
 */
export async function waitUntilClear(
  limiter: RateLimiter,
  checks: readonly BucketCheck[],
  sendAt: number,
  rebook: (windows: readonly BucketCheck[]) => Promise<number>,
): Promise<number> {
  let at = sendAt;
  for (let round = 0; round < MAX_REBOOKINGS; round++) {
    const over = await overcommitted(limiter, checks);
    if (over.length === 0) return at;
    at = await rebook(over);
  }
  return at;
}
