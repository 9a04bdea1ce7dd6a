import type { ResolvedKey } from './key-resolver.js';
import type { WaitDecision } from '@core/rate-limit-contract';
import { failureOf, unpayableOf } from './answer-shape.js';
import type { CallParts } from './call-builder.js';
import type { LimiterObserver } from './limiter-observer.js';
import type { Admission, LimiterStore } from './limiter-store.js';
import { CLOSED, abortedError, errorResult, timeoutError } from './messages.js';
import { isAborted } from './read-arguments.js';
import type { WaiterSet } from './waiter-set.js';

/**
 * The answer of `waitForCapacity` from a store's booking (RL-W1..RL-W7): at once when the send time is now, a
 * waiter until the send time otherwise (its booking given back on abort or close), the budget's timeout, or the
 * bucket's failure in the caller's terms. `closed` tells whether the limiter closed meanwhile.
 */
export function waitAnswer(
  store: LimiterStore,
  waiters: WaiterSet,
  closed: () => boolean,
  a: Admission,
  budget: number,
  signal: AbortSignal | undefined,
  parts: CallParts,
): Promise<WaitDecision> {
  switch (a.status) {
    case 'admitted': {
      const booking = a.booking;
      if (a.sendAt <= a.now) return Promise.resolve({ kind: 'ok', sendAtMs: a.now });
      if (closed() || isAborted(signal)) {
        // the signal fired (or the limiter closed) while the store booked: give the booking back
        const give = (returned: boolean): WaitDecision => (closed() ? CLOSED : errorResult(abortedError(returned ? 'returned' : 'forfeited')));
        const r = booking === undefined ? false : store.cancel(booking);
        return r instanceof Promise ? r.then(give, () => give(false)) : Promise.resolve(give(r));
      }
      // A store whose time is elsewhere answers late by its round trip: the wait left is counted from the later of
      // its decision and its own clock now (never ahead of its time, LimiterStore.now), on the local timers.
      const t = store.timers.now();
      const target = t === a.now ? a.sendAt : t + (a.sendAt - Math.max(a.now, store.now()));
      return waiters.wait(target, a.sendAt, signal, () => (booking === undefined ? false : store.cancel(booking)));
    }
    case 'wait':
      return Promise.resolve(errorResult(timeoutError(a.waitMs, budget)));
    case 'unpayable':
      return Promise.resolve(errorResult(unpayableOf(a, 'checkRates', parts)));
    case 'failed':
      return Promise.resolve(errorResult(failureOf(a, 'checkRates', parts)));
  }
}

/** Tells the observer of a wait's answer and how long it took; `keys` must outlive the call. */
export function observeWait(
  observer: LimiterObserver,
  store: LimiterStore,
  n: number,
  keys: readonly ResolvedKey[],
  p: Promise<WaitDecision>,
): Promise<WaitDecision> {
  const timers = store.timers;
  const start = timers.now();
  return p.then((d) => {
    try {
      observer.admission('waitForCapacity', n, keys, d, timers.now() - start);
    } catch {
      // an observer never changes an answer
    }
    return d;
  });
}
