import { ENTRY, MAX_AMOUNT, MAX_WINDOW_ENTRIES, windowCharge, windowExpiry, windowSendTime, type WindowDefinition } from '@core/rate-limit-kit';

/** What the window arithmetic computed of one entry list, under one definition. */
interface Info {
  readonly w: WindowDefinition;
  /** The sum of every entry's cost, added in list order: no interval counts more (all costs are >= 0). */
  total: number;
  /** No entry stops counting before this (a lower bound: merges only make entries count longer). */
  minExpiry: number;
  /** When the last entry stops counting (the kit's `windowExpiry`). */
  maxExpiry: number;
  /** Every cost an integer and their sum at most 2^53 - 1: every sum of them is exact, in any order. */
  integral: boolean;
  /** Every entry an admitted send of class normal or bulk (kinds 0, 5), and no other kind. */
  simple: boolean;
  /** The kit's send time `sAt` for cost `sCost` from `sFrom`: the same from any time in `[sFrom, sAt]`. */
  sCost: number;
  sFrom: number;
  sAt: number;
}

/**
 * The window arithmetic of the quick admission (a probe of class normal that keeps no share free, so the
 * line is `perWindow` and nothing is kept beside it), with what it computed of each entry list kept
 * while the list is unchanged: a list is replaced, never changed, except here (`charge`), which updates
 * what it kept. Every answer is the kit's (`windowSendTime`, `windowCharge`, `windowExpiry`), exactly:
 * - a window whose whole list leaves room for the cost admits it at any time (no interval counts more
 *   than the sum of all entries, added in list order);
 * - a send time is the same from any time between the one it was asked from and itself: with the line at
 *   `perWindow` a send fits when the count of every interval containing it does, and between two times
 *   entries stop counting the count of an interval only grows with its end, so no time before the
 *   earliest fitting one fits;
 * - a charge at now on a list of admitted sends of classes normal and bulk, none ahead of now and none
 *   to prune, appends one entry and, past the bound, merges the pair the kit's `addEntry` merges.
 */
export class WindowCache {
  readonly #info = new WeakMap<readonly number[], Info>();

  #of(e: readonly number[], w: WindowDefinition): Info {
    const info = this.#info.get(e);
    if (info !== undefined && info.w === w) return info;
    let total = 0;
    let minExpiry = Infinity;
    let simple = true;
    let integral = true;
    for (let i = 0; i < e.length; i += ENTRY) {
      total += e[i + 2] as number;
      if (!Number.isInteger(e[i + 2])) integral = false;
      const f = e[i + 3] as number;
      if (f !== 0 && f !== 5) simple = false;
      // kinds 0 and 5 count until their `b`; other kinds' `lastSend` differs, but only simple lists are charged here
      const x = (e[i + 1] as number) + w.span;
      if (x < minExpiry) minExpiry = x;
    }
    integral = integral && total <= Number.MAX_SAFE_INTEGER;
    const made: Info = { w, total, integral, minExpiry, maxExpiry: windowExpiry(e, w), simple, sCost: Number.NaN, sFrom: 0, sAt: 0 };
    this.#info.set(e, made);
    return made;
  }

  /** `windowSendTime(e, w, cost, from)` (line `perWindow`, nothing kept). */
  sendTime(e: readonly number[], w: WindowDefinition, cost: number, from: number): number {
    if (cost > w.perWindow + w.eps) return Number.POSITIVE_INFINITY;
    const info = this.#of(e, w);
    if (!(info.total > w.perWindow + w.eps - cost)) return from;
    if (info.sCost === cost && info.sFrom <= from && from <= info.sAt) return info.sAt;
    const at = windowSendTime(e, w, cost, from);
    info.sCost = cost;
    info.sFrom = from;
    info.sAt = at;
    return at;
  }

  /** The kit's `windowExpiry` of a list (kept). */
  expiry(e: readonly number[], w: WindowDefinition): number {
    return this.#of(e, w).maxExpiry;
  }

  /**
   * `windowCharge(e, w, cost, now, now, 1)`: a charge of class normal at now. A simple list with nothing to
   * prune and nothing ahead of now is changed in place (the list returned is `e`); any other is the kit's.
   */
  charge(e: number[], w: WindowDefinition, cost: number, now: number): number[] {
    const info = this.#of(e, w);
    const n = e.length;
    if (!info.simple || !(now < info.minExpiry) || n > MAX_WINDOW_ENTRIES * ENTRY || (n > 0 && (e[n - ENTRY] as number) > now))
      return windowCharge(e, w, cost, now, now, 1);
    e.push(now, now, cost, 0);
    info.total += cost;
    info.integral = info.integral && Number.isInteger(cost) && info.total <= Number.MAX_SAFE_INTEGER;
    const x = now + w.span;
    if (x > info.maxExpiry) info.maxExpiry = x;
    if (x < info.minExpiry) info.minExpiry = x;
    info.sCost = Number.NaN;
    if (e.length > MAX_WINDOW_ENTRIES * ENTRY) {
      mergeSimple(e, w, now);
      // integer costs add up exactly in any order (a merge keeps the sum); others are added again in list order
      if (!info.integral) {
        let total = 0;
        for (let i = 2; i < e.length; i += ENTRY) total += e[i] as number;
        info.total = total;
      }
    }
    return e;
  }
}

/**
 * The kit's `addEntry` merge on a simple list one entry past the bound, in place: every entry in one
 * merge group, so each entry's pair is the next one; no start marker, so what a merge costs syncs is
 * only its recency (`syncCost` without `start`). The pair with the least merged width plus that cost, the
 * earliest on a tie.
 */
function mergeSimple(e: number[], w: WindowDefinition, now: number): void {
  const line = now - 2 * w.jitterMs;
  let bi = -1;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i + ENTRY < e.length; i += ENTRY) {
    const a = e[i] as number;
    const bI = e[i + 1] as number;
    const bJ = e[i + ENTRY + 1] as number;
    const end = Math.max(bI, bJ);
    const recent = end <= line || a > now ? 0 : a > line ? 2 * w.jitterMs : w.windowMs;
    const score = end - a + recent;
    if (score < best) {
      best = score;
      bi = i;
    }
  }
  const bj = bi + ENTRY;
  e[bi + 1] = Math.max(e[bi + 1] as number, e[bj + 1] as number);
  e[bi + 2] = Math.min((e[bi + 2] as number) + (e[bj + 2] as number), MAX_AMOUNT);
  e[bi + 3] = e[bi + 3] === 5 || e[bj + 3] === 5 ? 5 : 0;
  e.splice(bj, ENTRY);
}
