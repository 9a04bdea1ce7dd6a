import type { BucketSnapshot } from '@core/rate-limit-contract';
import type { BucketSpec } from '@core/exchange-specs';

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : n < 10 ? n.toFixed(2) : n.toFixed(1);
}

/** A documented limit in words: `10 / 2 s sliding`, `6000 / 1 min aligned`, `15 cap, 0.33/s`. */
export function describeDocumented(b: BucketSpec): string {
  if (b.algorithm === 'token-bucket') return `${num(b.capacity)} cap, ${num(b.refillPerSec)}/s`;
  const w = b.windowMs % 60_000 === 0 ? `${b.windowMs / 60_000} min` : `${num(b.windowMs / 1000)} s`;
  const kind = b.algorithm === 'fixed-window-aligned' ? 'aligned' : b.algorithm === 'fixed-window-anchored' ? 'anchored' : 'sliding';
  return `${num(b.limit)} / ${w} ${kind}`;
}

/**
 * What a live bucket holds now, in words that cannot be mistaken for usage of the documented limit:
 * `free 0.6 of 1` while tokens are left, `queue 1.27 s` while bookings wait beyond a token bucket's
 * burst (borrowed above capacity is booked ahead, not spent), `full` for a window limit whose
 * next window is taken by sends and bookings, `used 3 of 5` for a fixed quota, `held 12 s` during a penalty.
 */
export function describeNow(b: BucketSnapshot, nowMs: number): string {
  if (b.heldUntilMs !== undefined && b.heldUntilMs > nowMs) return `held ${num((b.heldUntilMs - nowMs) / 1000)} s`;
  if (b.windowMs !== undefined) {
    if (b.tokens > 1e-9 * b.capacity) return `free ${num(b.tokens)} of ${num(b.capacity)}`;
    return 'full';
  }
  if (b.refillPerSec === 0) return `used ${num(b.borrowed)} of ${num(b.capacity)}`;
  if (b.borrowed <= b.capacity) return `free ${num(Math.max(0, b.tokens))} of ${num(b.capacity)}`;
  return `queue ${num((b.borrowed - b.capacity) / b.refillPerSec)} s`;
}
