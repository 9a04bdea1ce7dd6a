/** One admitted cost at its send time. */
export interface Admission {
  readonly t: number;
  readonly cost: number;
}

/**
 * The tolerance of an RL-A6 check on send times given as epoch milliseconds (doubles near 1.8e12,
 * whose last bit is worth 2.4e-4 ms): each end of a window may be off by that much.
 */
export function epochTolerance(refillPerSec: number): number {
  return 1e-6 + (refillPerSec / 1000) * 2 * 2.5e-4;
}

/** The worst window found by {@link checkRlA6}. */
export interface RlA6Report {
  /** How far the worst window went over its bound (negative or zero when RL-A6 holds). */
  readonly worstExcess: number;
  readonly worstWindow: readonly [number, number];
  readonly admittedCost: number;
  /** The bound over the whole log: capacity + refill · (last − first). */
  readonly wholeBound: number;
}

/**
 * Checks RL-A6 over every window [a, b] whose ends are send times in the log: the cost admitted in
 * it is at most `max(capacity, largest cost) + refill·(b − a)`. Linear after sorting: for each end b
 * the worst start is the one maximising `refill·t_a − (cost before a)`.
 */
export function checkRlA6(log: readonly Admission[], capacity: number, refillPerSec: number): RlA6Report {
  const events = [...log].sort((x, y) => x.t - y.t);
  const perMs = refillPerSec / 1000;
  const bound = Math.max(capacity, ...events.map((e) => e.cost));
  let before = 0; // cost admitted strictly before the current event
  let best = -Infinity; // max over starts a of (perMs·t_a − cost before a)
  let bestT = 0;
  let worstExcess = -Infinity;
  let worstWindow: [number, number] = [0, 0];
  let i = 0;
  while (i < events.length) {
    // events at the same time belong to every window that contains that time
    let j = i;
    let sameTime = 0;
    const t = (events[i] as Admission).t;
    while (j < events.length && (events[j] as Admission).t === t) sameTime += (events[j++] as Admission).cost;
    const startValue = perMs * t - before;
    if (startValue > best) {
      best = startValue;
      bestT = t;
    }
    const through = before + sameTime;
    // window [bestT, t]: cost = through − before(bestT) = through + best − perMs·bestT
    const excess = through + best - perMs * bestT - bound - perMs * (t - bestT);
    if (excess > worstExcess) {
      worstExcess = excess;
      worstWindow = [bestT, t];
    }
    before = through;
    i = j;
  }
  const first = events[0]?.t ?? 0;
  const last = events[events.length - 1]?.t ?? 0;
  return { worstExcess, worstWindow, admittedCost: before, wholeBound: bound + perMs * (last - first) };
}
