import type { ScriptOutcome } from './script-runner.js';

/** One bucket's part of a batched sync call: its key and its arguments after the call's own (protocol.ts: syncBucketArgs). */
export interface SyncPart {
  readonly key: string;
  readonly args: readonly string[];
}

interface Batch {
  /** The hash tag the batch's keys share (every key on a standalone server). */
  readonly slot: string;
  /** The call's own arguments (now, TTL slack): a part with others waits for the next batch. */
  readonly head: readonly string[];
  readonly keys: string[];
  readonly args: string[];
  readonly waiting: Array<(outcome: ScriptOutcome) => void>;
}

/**
 * The syncs issued in one tick (a venue's answer reports several buckets at once), sent to Redis as one call
 * per hash slot: lua/sync.lua takes many buckets and applies them in order, exactly as separate calls in that
 * order would. A batch leaves at the end of the tick, or before any other call the store makes, so nothing
 * overtakes a sync issued before it; each caller gets the whole call's outcome.
 */
export class SyncBatcher {
  readonly #send: (keys: readonly string[], args: readonly string[]) => Promise<ScriptOutcome>;
  readonly #slotOf: (key: string) => string;
  #batches: Batch[] = [];
  #scheduled = false;

  constructor(send: (keys: readonly string[], args: readonly string[]) => Promise<ScriptOutcome>, slotOf: (key: string) => string) {
    this.#send = send;
    this.#slotOf = slotOf;
  }

  /** Whether syncs wait to be sent. */
  get pending(): boolean {
    return this.#batches.length > 0;
  }

  /** Adds one bucket's sync to the batch of its slot (a new batch when the call's own arguments differ). */
  add(head: readonly string[], part: SyncPart): Promise<ScriptOutcome> {
    const slot = this.#slotOf(part.key);
    let batch = this.#batches.find((b) => b.slot === slot);
    if (batch !== undefined && !sameArgs(batch.head, head)) {
      this.flush();
      batch = undefined;
    }
    if (batch === undefined) {
      batch = { slot, head, keys: [], args: [...head], waiting: [] };
      this.#batches.push(batch);
    }
    batch.keys.push(part.key);
    batch.args.push(...part.args);
    if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(() => {
        this.#scheduled = false;
        this.flush();
      });
    }
    const b = batch;
    return new Promise<ScriptOutcome>((resolve) => b.waiting.push(resolve));
  }

  /** Sends every batch now, in the order their first sync came. */
  flush(): void {
    const batches = this.#batches;
    if (batches.length === 0) return;
    this.#batches = [];
    for (const b of batches) {
      void this.#send(b.keys, b.args).then((outcome) => {
        for (const resolve of b.waiting) resolve(outcome);
      });
    }
  }
}

function sameArgs(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
