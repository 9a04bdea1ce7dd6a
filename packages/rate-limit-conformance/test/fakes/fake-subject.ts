// The fake limiter as a conformance subject: fault hooks on its store, a peer on the same store, its key names.
import type { Capabilities } from '@core/rate-limit-contract';
import type { ManualClock } from '../../src/manual-clock.js';
import type { ConformanceSubject } from '../../src/subject.js';
import type { WindowBook } from '../../src/window-log.js';
import { FakeLimiter } from './fake-limiter.js';
import { FakeStore, type FakeFlaws } from './fake-store.js';

export type { FakeFlaws } from './fake-store.js';

/** A conformance subject around a {@link FakeLimiter}, with fault hooks, a peer and its key names. */
export function createFakeSubject(
  clock: ManualClock,
  flaws: FakeFlaws = {},
  capabilities: Partial<Capabilities> = {},
  windows?: () => WindowBook,
): ConformanceSubject {
  const newStore = (): FakeStore => (windows === undefined ? new FakeStore(flaws) : new FakeStore(flaws, windows()));
  const store = newStore();
  return {
    limiter: new FakeLimiter(clock, store, flaws, capabilities),
    breakStore: () => {
      store.broken = true;
    },
    repairStore: () => {
      store.repair(clock.now());
    },
    peer: () => new FakeLimiter(clock, flaws.unsharedPeer ? newStore() : store, flaws, capabilities),
    storageKeys: () => store.keyNames(clock.now()),
  };
}
