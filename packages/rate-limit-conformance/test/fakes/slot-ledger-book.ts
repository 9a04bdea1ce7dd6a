import type { SyncOptions } from '@core/rate-limit-contract';
import type { ModelWindow, WindowBook } from '../../src/window-log.js';

/**
 * The functions of a slot ledger (the kit's `slot-ledger.ts`, MODEL.md "Window limits, rebuilt") that the
 * self-test drives, as the kit's build exports them. The suite itself never imports the kit: the self-test
 * loads it at run time, to prove that the window tests pass a limiter counting in slots as well as the exact log.
 */
export interface SlotLedger {
  readonly WINDOW_SLOTS: number;
  defineWindow(perWindow: number, windowMs: number, jitterMs: number): Definition;
  emptyLedger(): number[];
  windowSendTime(e: readonly number[], d: Definition, cost: number, from: number, line?: number): number;
  windowCharge(e: readonly number[], d: Definition, cost: number, s: number, now: number): number[];
  windowRecord(e: readonly number[], d: Definition, cost: number, now: number): number[];
  windowSync(
    e: readonly number[],
    d: Definition,
    used: number,
    now: number,
    sentAtMs: number | undefined,
    countedOwnCost: number,
    windowEnd: readonly [number, number] | undefined,
    outsideOwnCost?: number,
  ): number[];
  windowPenalize(e: readonly number[], d: Definition, untilMs: number, now: number): number[];
  windowBorrowed(e: readonly number[], d: Definition, now: number): number;
  windowExpiry(e: readonly number[], d: Definition): number;
  windowFromBorrowed(borrowed: number, hold: number, d: Definition, now: number): number[];
  pruneWindow(e: readonly number[], d: Definition, now: number): number[];
}

/** A slot ledger's prepared window limit (opaque here but for `M`, the slots in the widest run). */
export interface Definition {
  readonly M: number;
}

/**
 * A {@link WindowBook} over a slot ledger. `slotsShort` (a flaw) takes runs that many slots shorter than an
 * interval of `windowMs + jitterMs` can touch, so a send late in its slot and one early in a slot `M − 1` later
 * share an interval the ledger never checks (breaks RL-V1).
 */
export function slotLedgerBook(ledger: SlotLedger, slotsShort = 0): WindowBook<number[]> {
  const def = (w: ModelWindow): Definition => {
    const d = ledger.defineWindow(w.perWindow, w.windowMs, w.jitterMs);
    return slotsShort === 0 ? d : { ...d, M: d.M - slotsShort };
  };
  const end = (r: SyncOptions): readonly [number, number] | undefined =>
    r.windowEnd === undefined ? undefined : [r.windowEnd.earliestMs, r.windowEnd.latestMs];
  return {
    empty: () => ledger.emptyLedger(),
    earliest: (e, w, cost, from, line, now) => ledger.windowSendTime(ledger.pruneWindow(e, def(w), now), def(w), cost, from, line),
    charge: (e, w, cost, at, now) => ledger.windowCharge(e, def(w), cost, at, now),
    record: (e, w, cost, now) => ledger.windowRecord(e, def(w), cost, now),
    sync: (e, w, used, now, r) => ledger.windowSync(e, def(w), used, now, r.sentAtMs, r.countedOwnCost ?? 0, end(r), r.outsideOwnCost ?? 0),
    penalize: (e, w, untilMs, now) => ledger.windowPenalize(e, def(w), untilMs, now),
    borrowed: (e, w, now) => ledger.windowBorrowed(e, def(w), now),
    idle: (e, w, now) => ledger.windowExpiry(e, def(w)) <= now,
    redefine: (e, from, to, hold, now) => ledger.windowFromBorrowed(ledger.windowBorrowed(e, def(from), now), hold, def(to), now),
  };
}
