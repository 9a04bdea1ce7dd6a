import { costCounted, earliestAnsweredIn, type AnsweredQuery, type AnsweredSend, type WindowEnd } from '@core/exchange-specs';

/** One own send the venue counted on a key, answered: what later usage reports may take as counted. */
export interface OwnSend extends AnsweredSend {
  readonly answeredAtMs: number;
  /** The order of its answer among the sends and answers of the fetches on one limiter (causal, unlike two times in one millisecond). */
  readonly answerSeq: number;
}

/** Sends per block: a query reads a block's summary, and the sends themselves only of a block the answer splits. */
const BLOCK_SIZE = 256;
/** Blocks per group: a query reads a group's summary, and its blocks' only where the summary does not settle it. */
const GROUP_SIZE = 32;

/** What a query needs to take or leave sends all at once: a fold of them (associative, so a group's is its blocks'). */
class Summary {
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
  /** The answer order of the last send added. */
  lastSeq = Number.NEGATIVE_INFINITY;

  add(s: OwnSend): void {
    this.cost += s.cost;
    this.minSent = Math.min(this.minSent, s.sentAtMs);
    this.maxSent = Math.max(this.maxSent, s.sentAtMs);
    this.minAnswered = Math.min(this.minAnswered, s.answeredAtMs);
    this.maxAnswered = Math.max(this.maxAnswered, s.answeredAtMs);
    this.lastSeq = s.answerSeq;
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

  /** A copy of this summary. */
  copy(): Summary {
    const c = new Summary();
    c.cost = this.cost;
    c.minSent = this.minSent;
    c.maxSent = this.maxSent;
    c.minAnswered = this.minAnswered;
    c.maxAnswered = this.maxAnswered;
    c.allEnds = this.allEnds;
    c.endsLow = this.endsLow;
    c.endsHigh = this.endsHigh;
    c.commonLow = this.commonLow;
    c.commonHigh = this.commonHigh;
    c.widest = this.widest;
    c.lastSeq = this.lastSeq;
    return c;
  }

  /** Whether no send reported the window ending at `end`. */
  noneReported(end: WindowEnd): boolean {
    return this.endsLow > end.latestMs || this.endsHigh < end.earliestMs;
  }

  /** Whether every send reported the window ending at `end` (each window end holds the common part, which overlaps `end`). */
  allReported(end: WindowEnd, windowMs: number): boolean {
    return this.allEnds && this.widest < windowMs / 2 && this.commonLow <= end.latestMs && end.earliestMs <= this.commonHigh;
  }
}

/** Consecutive sends (in the order of their answers) and their summary. */
class Block extends Summary {
  readonly sends: OwnSend[] = [];
  /** The summaries of the block's sends from each index on, made once the block is the first one and its sends begin to be forgotten. */
  #tails: Summary[] | undefined;
  /** While the block fills: the summaries of its sends up to each index (a usage report reads the latest block in part). */
  #heads: Summary[] | undefined = [];

  override add(s: OwnSend): void {
    this.sends.push(s);
    super.add(s);
    if (this.#heads === undefined) return;
    if (this.sends.length >= BLOCK_SIZE) this.#heads = undefined;
    else this.#heads.push(this.copy());
  }

  /** The summary of the sends before index `to`, while the block fills (`undefined` once it is full). */
  head(to: number): Summary | undefined {
    return to === 0 ? undefined : this.#heads?.[to - 1];
  }

  /** The summary of the sends from index `from` on (the block's sends still remembered once the first `from` are forgotten). */
  tail(from: number): Summary {
    let tails = this.#tails;
    if (tails === undefined || tails.length !== this.sends.length) {
      tails = new Array<Summary>(this.sends.length);
      let acc = new Summary();
      for (let k = this.sends.length - 1; k >= 0; k--) {
        acc = acc.copy();
        acc.add(this.sends[k] as OwnSend);
        acc.lastSeq = this.lastSeq;
        tails[k] = acc;
      }
      this.#tails = tails;
    }
    return tails[from] as Summary;
  }
}

/** Consecutive blocks and the summary of their sends (the first group's, once sends are forgotten, is no longer theirs). */
class Group extends Summary {
  readonly blocks: Block[] = [];
}

/**
 * Settles a summary's sends at once (true: taken into the answer, or left out), or says they must be read (false).
 */
type Settle = (s: Summary) => boolean;

/**
 * The own sends on one bucket key, in the order of their answers, in blocks with summaries, in groups with
 * summaries: a usage report's questions (the cost its window holds, when it began at the latest, our own usage
 * since a time) read a summary per group, the summaries of the few groups the answer does not settle, and the
 * sends of the few blocks it splits, where a list of sends was read whole on every answer. The sends older than
 * the memory are forgotten (whole blocks and groups, and the first block from a start index).
 */
export class OwnSendLog {
  readonly #groups: Group[] = [];
  /** The first send of the first block still remembered. */
  #start = 0;

  /** Adds a send answered after every send in the log. */
  push(s: OwnSend): void {
    let group = this.#groups[this.#groups.length - 1];
    let block = group?.blocks[group.blocks.length - 1];
    if (group === undefined || block === undefined || block.sends.length >= BLOCK_SIZE) {
      if (group === undefined || group.blocks.length >= GROUP_SIZE) this.#groups.push((group = new Group()));
      group.blocks.push((block = new Block()));
    }
    block.add(s);
    group.add(s);
  }

  /** Forgets the sends from the oldest on while their send time is at or before `cutoffMs`. */
  forget(cutoffMs: number): void {
    for (;;) {
      const group = this.#groups[0];
      const first = group?.blocks[0];
      if (group === undefined || first === undefined) return;
      while (this.#start < first.sends.length && (first.sends[this.#start]?.sentAtMs ?? 0) <= cutoffMs) this.#start++;
      if (this.#start < first.sends.length) return;
      group.blocks.shift();
      if (group.blocks.length === 0) this.#groups.shift();
      this.#start = 0;
    }
  }

  /** How many sends are remembered. */
  get size(): number {
    let n = 0;
    for (const g of this.#groups) for (const b of g.blocks) n += b.sends.length;
    return n - this.#start;
  }

  /**
   * Walks the sends answered before `beforeSeq`: `settle` gets each group and block taken whole (the first group's
   * blocks only: its summary holds forgotten sends; the first block's sends still remembered), `some` the sends of
   * those it leaves to read and of the block `beforeSeq` splits.
   */
  #walk(beforeSeq: number, settle: Settle, some: (sends: readonly OwnSend[]) => void): void {
    for (let i = 0; i < this.#groups.length; i++) {
      const g = this.#groups[i] as Group;
      if ((g.blocks[0]?.sends[0]?.answerSeq ?? beforeSeq) >= beforeSeq) return;
      if (i > 0 && g.lastSeq < beforeSeq && settle(g)) continue;
      for (let j = 0; j < g.blocks.length; j++) {
        const b = g.blocks[j] as Block;
        if ((b.sends[0]?.answerSeq ?? beforeSeq) >= beforeSeq) return;
        const from = i === 0 && j === 0 ? this.#start : 0;
        if (b.lastSeq < beforeSeq) {
          if (!settle(from === 0 ? b : b.tail(from))) some(from === 0 ? b.sends : b.sends.slice(from));
          continue;
        }
        // (answers in order: the first answered at or after beforeSeq, by bisection)
        let to = from;
        for (let hi = b.sends.length; to < hi; ) {
          const mid = (to + hi) >>> 1;
          if ((b.sends[mid] as OwnSend).answerSeq < beforeSeq) to = mid + 1;
          else hi = mid;
        }
        const head = from === 0 ? b.head(to) : undefined;
        if (head === undefined || !settle(head)) some(b.sends.slice(from, to));
      }
    }
  }

  /** The sends answered before `beforeSeq`, oldest answer first. */
  *answered(beforeSeq: number): Generator<OwnSend> {
    const parts: (readonly OwnSend[])[] = [];
    this.#walk(
      beforeSeq,
      () => false,
      (s) => parts.push(s),
    );
    for (const p of parts) yield* p;
  }

  /** The sends answered after `afterSeq`, oldest answer first (those answered while a request was on its way: few). */
  answeredAfter(afterSeq: number): OwnSend[] {
    const out: OwnSend[] = [];
    for (let i = this.#groups.length - 1; i >= 0; i--) {
      const g = this.#groups[i] as Group;
      for (let j = g.blocks.length - 1; j >= 0; j--) {
        const b = g.blocks[j] as Block;
        const from = i === 0 && j === 0 ? this.#start : 0;
        for (let k = b.sends.length - 1; k >= from; k--) {
          const s = b.sends[k] as OwnSend;
          if (s.answerSeq <= afterSeq) return out.reverse();
          out.push(s);
        }
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
          (x) => {
            // none reported it, or none can be earlier than the earliest found
            if (x.noneReported(end) || (first !== undefined && x.minAnswered >= first)) return true;
            if (!x.allReported(end, windowMs)) return false;
            take(x.minAnswered);
            return true;
          },
          (sends) => take(earliestAnsweredIn(sends, end, windowMs)),
        );
        return first;
      },
      costCounted: (latestStartMs, end, windowMs) => {
        let cost = 0;
        this.#walk(
          beforeSeq,
          (x) => {
            if (x.minSent > latestStartMs || (end !== undefined && x.allReported(end, windowMs))) cost += x.cost;
            else if (x.maxSent > latestStartMs || (end !== undefined && !x.noneReported(end))) return false;
            return true;
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
    this.#walk(
      Number.POSITIVE_INFINITY,
      (x) => {
        if (x.minSent > sinceMs && x.maxAnswered < beforeMs) sum += x.cost;
        else if (x.maxSent > sinceMs && x.minAnswered < beforeMs) return false;
        return true;
      },
      (sends) => {
        for (const s of sends) if (s.sentAtMs > sinceMs && s.answeredAtMs < beforeMs) sum += s.cost;
      },
    );
    return sum;
  }
}
