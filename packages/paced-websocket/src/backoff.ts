/** How reconnects are spaced (see {@link reconnectDelay}). */
export interface BackoffOptions {
  /** The first delay, ms; default 1 000. */
  readonly initialDelayMs?: number;
  /** The longest delay, ms; default 30 000. */
  readonly maxDelayMs?: number;
  /** The growth per failed attempt; default 2. */
  readonly factor?: number;
  /** The fraction of each delay drawn at random (0 = none, 0.5 = from half to all of it); default 0.2. */
  readonly jitter?: number;
}

/**
 * The delay before reconnect attempt `n` (0 for the first after a drop):
 * `min(maxDelayMs, initialDelayMs · factor^n) · (1 − jitter · r)` with `r` in [0, 1). The
 * connection buckets still pace every attempt; the delay keeps a flapping network from spending
 * them all at once.
 */
export function reconnectDelay(n: number, options: BackoffOptions, random: () => number): number {
  const initial = options.initialDelayMs ?? 1000;
  const max = options.maxDelayMs ?? 30_000;
  const factor = options.factor ?? 2;
  const jitter = options.jitter ?? 0.2;
  const base = Math.min(max, initial * factor ** Math.max(0, n));
  return base * (1 - jitter * random());
}

/** Checks backoff options. @throws RangeError naming the bad option. */
export function checkBackoff(options: BackoffOptions): void {
  const positive = (name: string, v: number | undefined): void => {
    if (v !== undefined && !(Number.isFinite(v) && v > 0))
      throw new RangeError(`paced websocket: reconnect.${name} must be a positive finite number, got ${String(v)}`);
  };
  positive('initialDelayMs', options.initialDelayMs);
  positive('maxDelayMs', options.maxDelayMs);
  if (options.factor !== undefined && !(Number.isFinite(options.factor) && options.factor >= 1))
    throw new RangeError(`paced websocket: reconnect.factor must be >= 1, got ${String(options.factor)}`);
  if (options.jitter !== undefined && !(options.jitter >= 0 && options.jitter < 1))
    throw new RangeError(`paced websocket: reconnect.jitter must be in [0, 1), got ${String(options.jitter)}`);
}
