import { NO_HOLD, isIdle, type Definition } from '@core/rate-limit-kit';
import type { BucketTable } from './bucket-table.js';

/** What the sweep needs to know of the store's tuning. */
export interface SweepOptions {
  readonly sweepEvery: number;
  readonly sweepBatch: number;
  readonly idleGraceMs: number;
}

/**
 * The amortized eviction of idle buckets (full and not held, so indistinguishable from absent ones): a
 * few slots every `sweepEvery` operations, a full pass compacting the table and forgetting holds that
 * ended. No timers, so memory stays bounded by the live buckets whatever the rate of new keys.
 */
export class IdleSweep {
  readonly #table: BucketTable;
  readonly #holds: Map<string, number>;
  readonly #windows: Map<string, number[]>;
  readonly #classes: Map<string, unknown>;
  readonly #defs: readonly Definition[];
  readonly #o: SweepOptions;
  #ops = 0;
  #cursor = 0;
  /** Idle buckets evicted so far. */
  evicted = 0;

  constructor(
    table: BucketTable,
    holds: Map<string, number>,
    windows: Map<string, number[]>,
    classes: Map<string, unknown>,
    defs: readonly Definition[],
    options: SweepOptions,
  ) {
    this.#table = table;
    this.#holds = holds;
    this.#windows = windows;
    this.#classes = classes;
    this.#defs = defs;
    this.#o = options;
  }

  /** Evicts every idle bucket now and gives unused table memory back; answers how many were evicted. */
  all(now: number): number {
    const before = this.evicted;
    this.#sweepRange(0, this.#table.highWater, now);
    this.#cursor = 0;
    this.#afterFullSweep(now);
    return this.evicted - before;
  }

  /** One step of the amortized sweep every `sweepEvery` operations (no per-key timers). */
  tick(now: number): void {
    if (++this.#ops < this.#o.sweepEvery) return;
    this.#ops = 0;
    const high = this.#table.highWater;
    if (high === 0) return;
    const start = this.#cursor < high ? this.#cursor : 0;
    const end = Math.min(high, start + this.#o.sweepBatch);
    this.#sweepRange(start, end, now);
    this.#cursor = end;
    if (end >= high) {
      this.#cursor = 0;
      this.#afterFullSweep(now);
    }
  }

  #sweepRange(start: number, end: number, now: number): void {
    const table = this.#table;
    const before = now - this.#o.idleGraceMs;
    const holds = this.#holds;
    const defs = this.#defs;
    for (let slot = start; slot < end; slot++) {
      // a bucket not full yet is not idle, whatever its hold: most live buckets stop here
      // (x relative to `before`: a token bucket's is kept relative to the time it was written)
      const def = defs[table.def(slot)];
      if (def === undefined) continue;
      const x = def.quota ? table.state(slot) : table.state(slot) + (table.at(slot) - before);
      if (x > 0) continue;
      const id = table.id(slot);
      if (id === undefined) continue;
      const hold = holds.size > 0 ? (holds.get(id) ?? NO_HOLD) : NO_HOLD;
      if (isIdle(x, hold - before, def, 0) && !(hold > now)) {
        table.remove(slot);
        if (this.#windows.size > 0) this.#windows.delete(id);
        if (this.#classes.size > 0) this.#classes.delete(id);
        this.evicted++;
      }
    }
  }

  #afterFullSweep(now: number): void {
    this.#table.compact();
    if (this.#holds.size > 0) for (const [id, until] of this.#holds) if (until <= now || this.#table.find(id) < 0) this.#holds.delete(id);
  }
}
