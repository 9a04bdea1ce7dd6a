import { abortReason } from './sleep.js';

/** Takes turns per key: each caller waits until every earlier caller of the same key has ended its turn. */
export interface Turns {
  /**
   * Waits for this caller's turn under `id`; resolves to the function that ends the turn (idempotent).
   * An abort while waiting rejects with the signal's reason and gives the turn up at once.
   */
  join(id: string, signal: AbortSignal | undefined): Promise<() => void>;
}

/** A fresh set of turn queues (the paced clients keep one per client, or per process). */
export function createTurns(): Turns {
  const turns = new Map<string, Promise<void>>();
  return {
    async join(id, signal) {
      const before = turns.get(id) ?? Promise.resolve();
      let release = (): void => undefined;
      const mine = new Promise<void>((resolve) => {
        release = resolve;
      });
      const tail = before.then(() => mine);
      turns.set(id, tail);
      let ended = false;
      const end = (): void => {
        if (ended) return;
        ended = true;
        release();
        if (turns.get(id) === tail) turns.delete(id);
      };
      if (signal === undefined) {
        await before;
        return end;
      }
      try {
        await new Promise<void>((resolve, reject) => {
          if (signal.aborted) return reject(abortReason(signal));
          const onAbort = (): void => reject(abortReason(signal));
          signal.addEventListener('abort', onAbort, { once: true });
          void before.then(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          });
        });
      } catch (e) {
        end();
        throw e;
      }
      return end;
    },
  };
}
