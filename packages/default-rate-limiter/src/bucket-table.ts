/**
 * The in-process store of live buckets: a `Map` from bucket id to a slot, and the slots' states, the
 * times they were written and definition numbers in typed arrays (no object per bucket, no boxed
 * number per update). A token bucket's state is its `x` relative to the time it was written (the kit's
 * gcra.ts, "Times relative to now"). Freed slots are reused; the arrays grow by doubling.
 */
export class BucketTable {
  readonly #index = new Map<string, number>();
  #states = new Float64Array(64);
  #ats = new Float64Array(64);
  #defs = new Int32Array(64);
  /**
   * The number of the write that last wrote each slot, counted across the table and never reused, so a booking
   * can tell whether anything was written to its bucket after it, wherever compaction moved the bucket.
   */
  #versions = new Float64Array(64);
  #ids: (string | undefined)[] = new Array<string | undefined>(64).fill(undefined);
  #free: number[] = [];
  #high = 0;
  /** Writes so far (a double: exact far beyond any process's lifetime of writes). */
  #writes = 0;

  /** How many buckets are stored. */
  get size(): number {
    return this.#index.size;
  }

  /** One past the highest slot ever used (for scans). */
  get highWater(): number {
    return this.#high;
  }

  /** The slot of a bucket, or -1. */
  find(id: string): number {
    const slot = this.#index.get(id);
    return slot === undefined ? -1 : slot;
  }

  state(slot: number): number {
    return this.#states[slot] as number;
  }

  /** The time the slot's state was written (0 for a state kept on the clock: a window's expiry, a quota's amount). */
  at(slot: number): number {
    return this.#ats[slot] as number;
  }

  def(slot: number): number {
    return this.#defs[slot] as number;
  }

  /** The number of the write that last wrote the slot (see `#versions`). */
  version(slot: number): number {
    return this.#versions[slot] as number;
  }

  /** The bucket id in a slot, or `undefined` for a free slot. */
  id(slot: number): string | undefined {
    return this.#ids[slot];
  }

  set(slot: number, state: number, at: number, def: number): void {
    this.#states[slot] = state;
    this.#ats[slot] = at;
    this.#defs[slot] = def;
    this.#versions[slot] = ++this.#writes;
  }

  setState(slot: number, state: number, at: number): void {
    this.#states[slot] = state;
    this.#ats[slot] = at;
    this.#versions[slot] = ++this.#writes;
  }

  /** Stores a new bucket and returns its slot. */
  insert(id: string, state: number, at: number, def: number): number {
    let slot = this.#free.pop();
    if (slot === undefined) {
      slot = this.#high++;
      if (slot >= this.#states.length) this.#grow();
    }
    this.#index.set(id, slot);
    this.#ids[slot] = id;
    this.#states[slot] = state;
    this.#ats[slot] = at;
    this.#defs[slot] = def;
    this.#versions[slot] = ++this.#writes;
    return slot;
  }

  /** Forgets the bucket in a slot. */
  remove(slot: number): void {
    const id = this.#ids[slot];
    if (id === undefined) return;
    this.#index.delete(id);
    this.#ids[slot] = undefined;
    this.#free.push(slot);
  }

  /** Forgets every bucket and gives the memory back. */
  clear(): void {
    this.#index.clear();
    this.#states = new Float64Array(64);
    this.#ats = new Float64Array(64);
    this.#defs = new Int32Array(64);
    this.#versions = new Float64Array(64);
    this.#ids = new Array<string | undefined>(64).fill(undefined);
    this.#free = [];
    this.#high = 0;
  }

  /**
   * Shrinks the arrays when at most a quarter of them is in use, moving live buckets down. Call it
   * only when no slot number is held elsewhere (bookings hold ids, not slots).
   */
  compact(): void {
    const size = this.#index.size;
    if (this.#states.length <= 1024 || size * 4 > this.#states.length) return;
    const capacity = Math.max(64, 1 << Math.ceil(Math.log2(size * 2 + 1)));
    const states = new Float64Array(capacity);
    const ats = new Float64Array(capacity);
    const defs = new Int32Array(capacity);
    const versions = new Float64Array(capacity);
    const ids = new Array<string | undefined>(capacity).fill(undefined);
    let n = 0;
    for (let slot = 0; slot < this.#high; slot++) {
      const id = this.#ids[slot];
      if (id === undefined) continue;
      states[n] = this.#states[slot] as number;
      ats[n] = this.#ats[slot] as number;
      defs[n] = this.#defs[slot] as number;
      versions[n] = this.#versions[slot] as number;
      ids[n] = id;
      this.#index.set(id, n);
      n++;
    }
    this.#states = states;
    this.#ats = ats;
    this.#defs = defs;
    this.#versions = versions;
    this.#ids = ids;
    this.#free = [];
    this.#high = n;
  }

  #grow(): void {
    const capacity = this.#states.length * 2;
    const states = new Float64Array(capacity);
    states.set(this.#states);
    const ats = new Float64Array(capacity);
    ats.set(this.#ats);
    const defs = new Int32Array(capacity);
    defs.set(this.#defs);
    const versions = new Float64Array(capacity);
    versions.set(this.#versions);
    this.#states = states;
    this.#ats = ats;
    this.#defs = defs;
    this.#versions = versions;
    const ids = this.#ids;
    for (let i = ids.length; i < capacity; i++) ids.push(undefined);
  }
}
