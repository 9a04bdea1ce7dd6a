// The window tests are written as guarantees, so a limiter counting send times in slots passes them as the exact
// log does: the fake with the kit's slot ledger in place of the exact log (loaded from the kit's build at run
// time; the suite never imports the kit) passes the whole suite, and one whose runs are a slot short fails RL-V1.
import { describe, expect, it } from 'vitest';
import { runConformanceSuite } from '../src/index.js';
import { createFakeProvider } from './fakes/fake-provider.js';
import { createFakeSubject } from './fakes/fake-subject.js';
import { slotLedgerBook, type SlotLedger } from './fakes/slot-ledger-book.js';
import { createRecordingRunner } from './recording-runner.js';

const ledger = (await import(new URL('../../rate-limit-kit/dist/window.js', import.meta.url).href)) as SlotLedger;

await runConformanceSuite({
  describe,
  it,
  name: 'slot-ledger fake',
  factory: ({ clock }) => createFakeSubject(clock, {}, { windowSlots: ledger.WINDOW_SLOTS }, () => slotLedgerBook(ledger)),
  provider: ({ limiter, clock, limits }) => createFakeProvider(limiter, clock, limits),
  propertyRuns: 60,
});

describe('a slot ledger one slot short', () => {
  it('fails RL-V1: a send late in its slot and one a run later share an interval', async () => {
    const runner = createRecordingRunner();
    await runConformanceSuite({
      describe: runner.describe,
      it: runner.it,
      name: 'slot ledger one slot short',
      factory: ({ clock }) => createFakeSubject(clock, {}, { windowSlots: ledger.WINDOW_SLOTS }, () => slotLedgerBook(ledger, 1)),
      propertyRuns: 60,
      realTimeoutMs: 250,
      shrink: false,
      filter: (title) => title.startsWith('RL-V'),
    });
    const result = await runner.run();
    const failed = result.failed.map((f) => f.title);
    expect(
      failed.filter((t) => t.startsWith('RL-V1 ') && !t.includes('(property)')),
      failed.join(' | '),
    ).not.toEqual([]);
  }, 120_000);
});
