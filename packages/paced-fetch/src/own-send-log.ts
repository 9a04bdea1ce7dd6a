import { costCounted, earliestAnsweredIn, type AnsweredQuery, type AnsweredSend, type WindowEnd } from '@core/exchange-specs';

/** One own send the venue counted on a key, answered: what later usage reports may take as counted. */
export interface OwnSend extends AnsweredSend {
  readonly answeredAtMs: number;
  /** The order of its answer among the sends and answers of the fetches on one limiter (causal, unlike two times in one millisecond). */
  readonly answerSeq: number;
}

/** Sends per block: a query reads a block's summary, and its chunks' only of a block the answer splits. */
const BLOCK_SIZE = 256;
/** Sends per chunk of a block: a query reads a chunk's summary, and the sends themselves only of a chunk the answer splits. */
const CHUNK_SIZE = 16;
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
  /** The answer order of the first send added (kept here: a walk reads it of every block it passes). */
  firstSeq = Number.POSITIVE_INFINITY;
  /** The answer order of the last send added. */
  lastSeq = Number.NEGATIVE_INFINITY;

  add(s: OwnSend): void {
    if (this.firstSeq === Number.POSITIVE_INFINITY) this.firstSeq = s.answerSeq;
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

  /** Adds the sends of `o`, all answered after this summary's (a fold is associative: the two folded as one). */
  merge(o: Summary): void {
    if (o.firstSeq === Number.POSITIVE_INFINITY) return;
    if (this.firstSeq === Number.POSITIVE_INFINITY) this.firstSeq = o.firstSeq;
    this.cost += o.cost;
    this.minSent = Math.min(this.minSent, o.minSent);
    this.maxSent = Math.max(this.maxSent, o.maxSent);
    this.minAnswered = Math.min(this.minAnswered, o.minAnswered);
    this.maxAnswered = Math.max(this.maxAnswered, o.maxAnswered);
    this.lastSeq = o.lastSeq;
    this.allEnds = this.allEnds && o.allEnds;
    this.endsLow = Math.min(this.endsLow, o.endsLow);
    this.endsHigh = Math.max(this.endsHigh, o.endsHigh);
    this.commonLow = Math.max(this.commonLow, o.commonLow);
    this.commonHigh = Math.min(this.commonHigh, o.commonHigh);
    this.widest = Math.max(this.widest, o.widest);
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

/** Consecutive sends (in the order of their answers) and their summary, in chunks with summaries. */
class Block extends Summary {
  readonly sends: OwnSend[] = [];
  /** The summaries of the sends `CHUNK_SIZE * k` to `CHUNK_SIZE * (k + 1)` (the last one filling). */
  readonly chunks: Summary[] = [];

  override add(s: OwnSend): void {
    if (this.sends.length % CHUNK_SIZE === 0) this.chunks.push(new Summary());
    this.sends.push(s);
    super.add(s);
    (this.chunks[this.chunks.length - 1] as Summary).add(s);
  }
}

/** Consecutive blocks and the summary of their sends (the first group's, once sends are forgotten, is no longer theirs). */
class Group extends Summary {
  readonly blocks: Block[] = [];
  /** The summary of the full blocks from `head` on, `count` of them (see `OwnSendLog.#span`), made once. */
  span: { readonly head: Block; readonly count: number; readonly summary: Summary } | undefined;
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
   * The summary of the `count` blocks of `g` from index `from` on, all full (none is its last): made again only when
   * those blocks change (a block of the group forgotten, or a block added), so a walk reads one summary of them.
   */
  #span(g: Group, from: number, count: number): Summary {
    const head = g.blocks[from] as Block;
    if (g.span?.head !== head || g.span.count !== count) {
      const summary = new Summary();
      for (let j = from; j < from + count; j++) summary.merge(g.blocks[j] as Block);
      g.span = { head, count, summary };
    }
    return g.span.summary;
  }

  /**
   * Walks the sends answered before `beforeSeq`: `settle` gets each group taken whole (not the first: its summary
   * holds forgotten sends), the full blocks of a group it leaves to read at once (but the first group's first, read
   * from the first send still remembered) and then each block, the chunks of each block it leaves to read; `some`
   * the sends of those it leaves to read and of the chunks `beforeSeq` or the forgetting splits.
   */
  #walk(beforeSeq: number, settle: Settle, some: (sends: readonly OwnSend[]) => void): void {
    const last = this.#groups.length - 1;
    for (let i = 0; i <= last; i++) {
      const g = this.#groups[i] as Group;
      if (g.firstSeq >= beforeSeq) return;
      if (i > 0 && g.lastSeq < beforeSeq && settle(g)) continue;
      let j = 0;
      if (i === 0) {
        const b = g.blocks[0] as Block;
        if (b.firstSeq >= beforeSeq) return;
        this.#walkBlock(b, this.#start, beforeSeq, settle, some);
        j = 1;
      }
      // the full blocks (all but the last) at once, when all were answered before
      const full = g.blocks.length - 1 - j;
      if (full > 1 && (g.blocks[j + full - 1] as Block).lastSeq < beforeSeq && settle(this.#span(g, j, full))) j += full;
      for (; j < g.blocks.length; j++) {
        const b = g.blocks[j] as Block;
        if (b.firstSeq >= beforeSeq) return;
        this.#walkBlock(b, 0, beforeSeq, settle, some);
      }
    }
  }

  /** Walks the sends of block `b` from index `from` on answered before `beforeSeq` (see {@link #walk}). */
  #walkBlock(b: Block, from: number, beforeSeq: number, settle: Settle, some: (sends: readonly OwnSend[]) => void): void {
    let to = b.sends.length;
    if (b.lastSeq >= beforeSeq) {
      // (answers in order: the first answered at or after beforeSeq, by bisection)
      let lo = from;
      for (let hi = to; lo < hi; ) {
        const mid = (lo + hi) >>> 1;
        if ((b.sends[mid] as OwnSend).answerSeq < beforeSeq) lo = mid + 1;
        else hi = mid;
      }
      to = lo;
    }
    if (from === 0 && to === b.sends.length && settle(b)) return;
    for (let k = Math.floor(from / CHUNK_SIZE); k * CHUNK_SIZE < to; k++) {
      const start = k * CHUNK_SIZE;
      const end = Math.min(start + CHUNK_SIZE, b.sends.length);
      if (start >= from && end <= to) {
        if (!settle(b.chunks[k] as Summary)) some(b.sends.slice(start, end));
      } else some(b.sends.slice(Math.max(from, start), Math.min(to, end)));
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
      costCounted: (latestStartMs, end, windowMs, skip) => {
        let cost = 0;
        this.#walk(
          beforeSeq,
          (x) => {
            // all sent in the range the limiter counts itself: none of them; some of them: the sends themselves
            if (skip !== undefined && x.minSent >= skip[0] && x.maxSent <= skip[1]) return true;
            if (skip !== undefined && x.minSent <= skip[1] && x.maxSent >= skip[0]) return false;
            if (x.minSent > latestStartMs || (end !== undefined && x.allReported(end, windowMs))) cost += x.cost;
            else if (x.maxSent > latestStartMs || (end !== undefined && !x.noneReported(end))) return false;
            return true;
          },
          (sends) => {
            cost += costCounted(sends, latestStartMs, end, windowMs, skip);
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
