import { randomBytes } from 'node:crypto';
import { RecordBuffer, type PendingRecord, type RecordStats } from './record-buffer.js';
import type { ScriptOutcome } from './script-runner.js';
import type { Operation } from './scripts.js';

const FLUSH_BATCH = 64;

/**
 * Delivers `record` calls to Redis exactly once (RL-R1). Every record gets an id (this sender's random
 * nonce and a counter) that record.lua marks as applied, so a delivery retried after a timeout (the
 * server may have been slow, stalled by SIGSTOP or a long script, not gone) changes nothing the second
 * time. Records that could not be delivered wait in a bounded buffer and are retried every `retryMs`,
 * and as soon as another call shows that Redis answers again.
 */
export class RecordSender {
  readonly #run: (op: Operation, keys: readonly string[], args: readonly string[]) => Promise<ScriptOutcome>;
  readonly #script: Operation;
  readonly #buffer: RecordBuffer;
  readonly #retryMs: number;
  readonly #nonce = randomBytes(6).toString('base64url');
  #counter = 0;
  #flushing = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(
    run: (op: Operation, keys: readonly string[], args: readonly string[]) => Promise<ScriptOutcome>,
    script: Operation,
    bufferSize: number,
    retryMs: number,
  ) {
    this.#run = run;
    this.#script = script;
    this.#buffer = new RecordBuffer(bufferSize);
    this.#retryMs = retryMs;
  }

  /** Records waiting for Redis now. */
  get buffered(): number {
    return this.#buffer.size;
  }

  /** A new record id, unique to this sender. */
  nextId(): string {
    this.#counter++;
    return `${this.#nonce}${this.#counter.toString(36)}`;
  }

  /** Sends a record; buffers it when Redis is away. Never throws, never blocks the caller. */
  send(record: PendingRecord): void {
    void this.#deliver(record).then((result) => {
      if (result === 'retry') {
        this.#buffer.push(record);
        this.#schedule();
      } else if (result === 'refused') {
        this.#buffer.countDropped(1);
      }
    });
  }

  /** Counts a record refused before sending (invalid input, closed). */
  drop(): void {
    this.#buffer.countDropped(1);
  }

  /** Redis answered another call: deliver what waits now rather than at the next retry. */
  redisAnswered(): void {
    if (this.#buffer.size > 0 && !this.#flushing) void this.#flush();
  }

  stats(): RecordStats {
    return this.#buffer.stats();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#buffer.dropAll();
  }

  /** One delivery: applied (or already applied), to retry (Redis away or too late), or refused by Redis. */
  async #deliver(record: PendingRecord): Promise<'applied' | 'retry' | 'refused'> {
    const outcome = await this.#run(this.#script, record.keys, record.args);
    if (outcome.ok) return 'applied';
    return outcome.error.code === 'backend_unavailable' ? 'retry' : 'refused';
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#closed || this.#buffer.size === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#flush();
    }, this.#retryMs);
    this.#timer.unref();
  }

  async #flush(): Promise<void> {
    if (this.#flushing || this.#closed) return;
    this.#flushing = true;
    try {
      while (this.#buffer.size > 0 && !this.#closed) {
        const batch = this.#buffer.take(FLUSH_BATCH);
        const results = await Promise.all(batch.map((r) => this.#deliver(r)));
        const failed = batch.filter((_, i) => results[i] === 'retry');
        const refused = results.filter((r) => r === 'refused').length;
        this.#buffer.countFlushed(batch.length - failed.length - refused);
        this.#buffer.countFlushDropped(refused);
        if (failed.length > 0) {
          this.#buffer.unshift(failed);
          break;
        }
      }
    } finally {
      this.#flushing = false;
      this.#schedule();
    }
  }
}
