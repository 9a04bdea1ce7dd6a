/** One record waiting for Redis: record.lua's keys (the bucket, the record's marker) and arguments. */
export interface PendingRecord {
  readonly keys: readonly [string, string];
  readonly args: readonly string[];
}

/** How record() has fared: what waits in the buffer, and what was flushed or dropped so far. */
export interface RecordStats {
  /** Records waiting for Redis now. */
  readonly buffered: number;
  /** Records that ever had to be buffered. */
  readonly bufferedTotal: number;
  /** Buffered records later applied. */
  readonly flushed: number;
  /** Records lost: buffer full (the oldest goes), invalid input, or the limiter closed. */
  readonly dropped: number;
}

/**
 * A bounded FIFO of records that could not reach Redis (RL-R1). When full, the oldest record is
 * dropped and counted: the newest ones weigh most on buckets that refill.
 */
export class RecordBuffer {
  readonly #capacity: number;
  #items: PendingRecord[] = [];
  #head = 0;
  /** Taken for a flush and not settled yet: still waiting for Redis, so still counted as buffered. */
  #inFlight = 0;
  #bufferedTotal = 0;
  #flushed = 0;
  #dropped = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(record: PendingRecord): void {
    this.#bufferedTotal++;
    if (this.#capacity === 0) {
      this.#dropped++;
      return;
    }
    if (this.size >= this.#capacity) {
      this.#head++;
      this.#dropped++;
    }
    this.#items.push(record);
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
  }

  /** Takes up to `n` records from the front for a flush; settle each with flushed, dropped or unshift. */
  take(n: number): PendingRecord[] {
    const out = this.#items.slice(this.#head, this.#head + n);
    this.#head += out.length;
    this.#inFlight += out.length;
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    }
    return out;
  }

  /** Puts records back at the front (their flush failed), keeping the bound. */
  unshift(records: readonly PendingRecord[]): void {
    this.#inFlight -= records.length;
    const rest = this.#items.slice(this.#head);
    const all = [...records, ...rest];
    const excess = Math.max(0, all.length - this.#capacity);
    this.#dropped += excess;
    this.#items = all.slice(excess);
    this.#head = 0;
  }

  /** Records taken for a flush that Redis applied. */
  countFlushed(n: number): void {
    this.#inFlight -= n;
    this.#flushed += n;
  }

  /** Records taken for a flush that Redis refused (they will not be retried). */
  countFlushDropped(n: number): void {
    this.#inFlight -= n;
    this.#dropped += n;
  }

  /** Records dropped before reaching the buffer (invalid input, limiter closed). */
  countDropped(n: number): void {
    this.#dropped += n;
  }

  /** Drops everything still buffered (the limiter closed). */
  dropAll(): void {
    this.#dropped += this.size;
    this.#items = [];
    this.#head = 0;
  }

  stats(): RecordStats {
    return { buffered: this.size + this.#inFlight, bufferedTotal: this.#bufferedTotal, flushed: this.#flushed, dropped: this.#dropped };
  }
}
