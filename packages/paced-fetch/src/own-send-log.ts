import { costCounted, earliestAnsweredIn, type AnsweredQuery, type AnsweredSend, type WindowEnd } from '@core/exchange-specs';

/** One own send the venue counted on a key, answered: what later usage reports may take as counted. */
export interface OwnSend extends AnsweredSend {
  readonly answeredAtMs: number;
  /** The order of its answer among the sends and answers of the fetches on one limiter (causal, unlike two times in one millisecond). */
  readonly answerSeq: number;
}

/** Sends per block: a query reads a block's summary, and the sends themselves only of a block the answer splits. */
const BLOCK_SIZE = 256;

/** Consecutive sends (in the order of their answers) and what a query needs to take or leave them all at once. */
class Block {
  readonly sends: OwnSend[] = [];
  cost = 0;
  minSent = Number.POSITIVE_INFINITY;
  maxSent = Number.NEGATIVE_INFINITY;
  minAnswered = Number.POSITIVE_INFINITY;
  maxAnswered = Number.NEGATIVE_INFINITY;
  /** Whether every send reported its window's end. */
  allEnds = true;
  /** The hull of the window ends reported (empty when none was). */
  endsLow = Number.POSITIVE_INFINITY;
  endsHigh = Number.NEGATIVE_INFINITY;
  /** The latest `earliestMs` and the earliest `latestMs` of the window ends reported. */
  commonLow = Number.NEGATIVE_INFINITY;
  commonHigh = Number.POSITIVE_INFINITY;
  /** The widest window end reported. */
  widest = 0;

  add(s: OwnSend): void {
    this.sends.push(s);
    this.cost += s.cost;
    this.minSent = Math.min(this.minSent, s.sentAtMs);
    this.maxSent = Math.max(this.maxSent, s.sentAtMs);
    this.minAnswered = Math.min(this.minAnswered, s.answeredAtMs);
    this.maxAnswered = Math.max(this.maxAnswered, s.answeredAtMs);
    const e = s.windowEnd;
    if (e === undefined) {
      this.allEnds = false;
      return;
    }
    this.endsLow = Math.min(this.endsLow, e.earliestMs);
    this.endsHigh = Math.max(this.endsHigh, e.latestMs);
    this.commonLow = Math.max(this.commonLow, e.earliestMs);
    this.commonHigh = Math.min(this.commonHigh, e.latestMs);
    this.widest = Math.max(this.widest, e.latestMs - e.earliestMs);
  }

  get lastSeq(): number {
    return this.sends[this.sends.length - 1]?.answerSeq ?? Number.NEGATIVE_INFINITY;
  }

  /** Whether no send of the block reported the window ending at `end`. */
  noneReported(end: WindowEnd): boolean {
    return this.endsLow > end.latestMs || this.endsHigh < end.earliestMs;
  }

  /** Whether every send of the block reported the window ending at `end` (each window end holds the common part, which overlaps `end`). */
  allReported(end: WindowEnd, windowMs: number): boolean {
    return this.allEnds && this.widest < windowMs / 2 && this.commonLow <= end.latestMs && end.earliestMs <= this.commonHigh;
  }
}

/**
 * The own sends on one bucket key, in the order of their answers, in blocks with summaries: a usage report's
 * questions (the cost its window holds, when it began at the latest, our own usage since a time) read a summary per
 * block and the sends of the few blocks the answer splits, where a list of sends was read whole on every answer.
 * The sends older than the memory are forgotten (whole blocks, and the first block from a start index).
 */
export class OwnSendLog {
  readonly #blocks: Block[] = [];
  /** The first send of the first block still remembered. */
  #start = 0;

  /** Adds a send answered after every send in the log. */
  push(s: OwnSend): void {
    let last = this.#blocks[this.#blocks.length - 1];
    if (last === undefined || last.sends.length >= BLOCK_SIZE) this.#blocks.push((last = new Block()));
    last.add(s);
  }

  /** Forgets the sends from the oldest on while their send time is at or before `cutoffMs`. */
  forget(cutoffMs: number): void {
    for (;;) {
      const first = this.#blocks[0];
      if (first === undefined) return;
      while (this.#start < first.sends.length && (first.sends[this.#start]?.sentAtMs ?? 0) <= cutoffMs) this.#start++;
      if (this.#start < first.sends.length) return;
      this.#blocks.shift();
      this.#start = 0;
    }
  }

  /** How many sends are remembered. */
  get size(): number {
    let n = 0;
    for (const b of this.#blocks) n += b.sends.length;
    return n - this.#start;
  }

  /**
   * Walks the sends answered before `beforeSeq`: `whole` gets each block taken whole, `some` the sends of the
   * blocks taken in part (the first block after its forgotten sends, the block `beforeSeq` splits).
   */
  #walk(beforeSeq: number, whole: (b: Block) => void, some: (sends: readonly OwnSend[]) => void): void {
    for (let i = 0; i < this.#blocks.length; i++) {
      const b = this.#blocks[i] as Block;
      if ((b.sends[0]?.answerSeq ?? beforeSeq) >= beforeSeq) return;
      const from = i === 0 ? this.#start : 0;
      if (from === 0 && b.lastSeq < beforeSeq) {
        whole(b);
        continue;
      }
      let to = from;
      while (to < b.sends.length && (b.sends[to]?.answerSeq ?? beforeSeq) < beforeSeq) to++;
      some(b.sends.slice(from, to));
    }
  }

  /** The sends answered before `beforeSeq`, oldest answer first. */
  *answered(beforeSeq: number): Generator<OwnSend> {
    const parts: (readonly OwnSend[])[] = [];
    this.#walk(
      beforeSeq,
      (b) => parts.push(b.sends),
      (s) => parts.push(s),
    );
    for (const p of parts) yield* p;
  }

  /** The sends answered after `afterSeq`, oldest answer first (those answered while a request was on its way: few). */
  answeredAfter(afterSeq: number): OwnSend[] {
    const out: OwnSend[] = [];
    for (let i = this.#blocks.length - 1; i >= 0; i--) {
      const b = this.#blocks[i] as Block;
      const from = i === 0 ? this.#start : 0;
      for (let j = b.sends.length - 1; j >= from; j--) {
        const s = b.sends[j] as OwnSend;
        if (s.answerSeq <= afterSeq) return out.reverse();
        out.push(s);
      }
    }
    return out.reverse();
  }

  /** The folds a usage report takes of the sends answered before `beforeSeq` (exchange-specs' `AnsweredQuery`). */
  query(beforeSeq: number): AnsweredQuery {
    return {
      earliestAnsweredIn: (end, windowMs) => {
        let first: number | undefined;
        const take = (t: number | undefined): void => {
          if (t !== undefined && (first === undefined || t < first)) first = t;
        };
        this.#walk(
          beforeSeq,
          (b) => {
            if (b.noneReported(end)) return;
            take(b.allReported(end, windowMs) ? b.minAnswered : earliestAnsweredIn(b.sends, end, windowMs));
          },
          (sends) => take(earliestAnsweredIn(sends, end, windowMs)),
        );
        return first;
      },
      costCounted: (latestStartMs, end, windowMs) => {
        let cost = 0;
        this.#walk(
          beforeSeq,
          (b) => {
            if (b.minSent > latestStartMs || (end !== undefined && b.allReported(end, windowMs))) cost += b.cost;
            else if (b.maxSent > latestStartMs || (end !== undefined && !b.noneReported(end))) cost += costCounted(b.sends, latestStartMs, end, windowMs);
          },
          (sends) => {
            cost += costCounted(sends, latestStartMs, end, windowMs);
          },
        );
        return cost;
      },
    };
  }

  /** The cost of the sends sent after `sinceMs` whose answers arrived before `beforeMs`. */
  usage(sinceMs: number, beforeMs: number): number {
    let sum = 0;
    const some = (sends: readonly OwnSend[]): void => {
      for (const s of sends) if (s.sentAtMs > sinceMs && s.answeredAtMs < beforeMs) sum += s.cost;
    };
    this.#walk(
      Number.POSITIVE_INFINITY,
      (b) => {
        if (b.minSent > sinceMs && b.maxAnswered < beforeMs) sum += b.cost;
        else if (b.maxSent > sinceMs && b.minAnswered < beforeMs) some(b.sends);
      },
      some,
    );
    return sum;
  }
}
