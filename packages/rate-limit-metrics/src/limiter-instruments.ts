import type { Attributes, BatchObservableResult, Histogram, Meter, Observable, ObservableCounter } from '@opentelemetry/api';
import type { Decision, WaitDecision } from '@core/rate-limit-contract';
import { ATTR, METRIC, OPERATION, OTHER_AXIS, WAIT_BOUNDARIES_S, isPacingAxis, type OperationName } from './names.js';

/** A bucket as the instruments see it: its venue and axis (never its credential). */
export interface BucketName {
  readonly venue: string;
  readonly axis: string;
}

/** The admission operations, in the order of the attribute cache. */
const ADMISSION_OPS = ['checkRate', 'checkRates', 'peek', 'waitForCapacity'] as const;
/** An admission operation. */
export type AdmissionOperation = (typeof ADMISSION_OPS)[number];
const OP_INDEX: Readonly<Record<AdmissionOperation, number>> = { checkRate: 0, checkRates: 1, peek: 2, waitForCapacity: 3 };
const KIND_INDEX = { ok: 0, booked: 1, delay: 2 } as const;

/** A counted attribute set: its attributes and how many times it was counted so far. */
interface Tally {
  readonly attrs: Attributes;
  value: number;
}

/** The tallies of one (venue, axis) series. */
interface Series {
  readonly venue: string;
  readonly axis: string;
  /** [operation][ok | booked | delay] */
  readonly plain: (Tally | undefined)[][];
  /** `${operation} ${code}` of error answers. */
  readonly errors: Map<string, Tally>;
  /** A paced client's pacing bucket: not counted (its limit's decisions are). */
  readonly pacing: boolean;
}

/** Per-venue attribute sets of the histograms. */
interface VenueAttrs {
  readonly wait: Map<string, Attributes>;
  readonly lead: (Attributes | undefined)[];
}

/**
 * The instruments of a limiter's answers: decisions and store failures are counted here, in plain
 * numbers beside their cached attribute sets, and reported through observable counters at each
 * collection (so counting a decision is an increment and allocates nothing once its series exists);
 * waits and booking leads are recorded on histograms as they happen. At most
 * `maxSeries` (venue, axis) pairs get series of their own; further axes are reported as `_other`
 * under their venue (and further venues as venue `_other`), so cardinality stays bounded whatever
 * the callers' keys.
 */
export class LimiterInstruments {
  readonly #wait: Histogram;
  readonly #lead: Histogram;
  readonly #maxSeries: number;
  readonly #series = new Map<string, Map<string, Series>>();
  /** Every decision tally, in creation order (what the observable counter reports). */
  readonly #tallies: Tally[] = [];
  readonly #venues = new Map<string, VenueAttrs>();
  readonly #unavailable = new Map<OperationName, Tally>();
  readonly #decisions: ObservableCounter;
  readonly #unavailableCounter: ObservableCounter;
  #count = 0;

  constructor(meter: Meter, maxSeries: number) {
    this.#maxSeries = maxSeries;
    this.#decisions = meter.createObservableCounter(METRIC.decisions, {
      description: 'Answers of admission calls (ok, booked, delay or error), one per distinct bucket of the call.',
      unit: '{decision}',
    });
    this.#wait = meter.createHistogram(METRIC.waitDuration, {
      description: 'How long waitForCapacity took from the call to its answer (the send time when ok).',
      unit: 's',
      advice: { explicitBucketBoundaries: [...WAIT_BOUNDARIES_S] },
    });
    this.#lead = meter.createHistogram(METRIC.bookingLead, {
      description: 'How far ahead a booked answer sends: its send time minus the time of the decision.',
      unit: 's',
      advice: { explicitBucketBoundaries: [...WAIT_BOUNDARIES_S] },
    });
    this.#unavailableCounter = meter.createObservableCounter(METRIC.backendUnavailable, {
      description: 'Answers backend_unavailable: the store could not be reached or answered too late, and the call failed closed.',
      unit: '{call}',
    });
  }

  /** The observable counters {@link LimiterInstruments.report} reports (register them in a batch callback). */
  get observables(): readonly Observable[] {
    return [this.#decisions, this.#unavailableCounter];
  }

  /** Reports the counters' totals (from a batch callback over {@link LimiterInstruments.observables}). */
  report(result: BatchObservableResult): void {
    for (const t of this.#tallies) result.observe(this.#decisions, t.value, t.attrs);
    for (const t of this.#unavailable.values()) result.observe(this.#unavailableCounter, t.value, t.attrs);
  }

  /**
   * Records one admission answer over the call's first `n` buckets.
   *
   * @param waitedMs - `waitForCapacity` only: from the call to its answer.
   */
  admission(operation: AdmissionOperation, n: number, buckets: ArrayLike<BucketName>, answer: Decision | WaitDecision, waitedMs: number | undefined): void {
    const op = OP_INDEX[operation];
    const kind = answer.kind;
    for (let i = 0; i < n; i++) {
      const b = buckets[i];
      if (b === undefined) continue;
      const s = this.#seriesOf(b.venue, b.axis);
      if (s.pacing) continue;
      let t: Tally | undefined;
      if (kind === 'error') {
        const code = answer.error.code;
        const id = `${op} ${code}`;
        t = s.errors.get(id);
        if (t === undefined) {
          t = this.#tally({
            [ATTR.venue]: s.venue,
            [ATTR.axis]: s.axis,
            [ATTR.operation]: OPERATION[operation],
            [ATTR.decision]: 'error',
            [ATTR.errorType]: code,
          });
          s.errors.set(id, t);
        }
      } else {
        const row = s.plain[op] as (Tally | undefined)[];
        const k = KIND_INDEX[kind];
        t = row[k];
        if (t === undefined) {
          t = this.#tally({ [ATTR.venue]: s.venue, [ATTR.axis]: s.axis, [ATTR.operation]: OPERATION[operation], [ATTR.decision]: kind });
          row[k] = t;
        }
      }
      t.value++;
    }
    const first = buckets[0];
    if (n === 0 || first === undefined) return;
    if (kind === 'booked') this.#lead.record(answer.waitMs / 1000, this.#leadAttrs(first.venue, op));
    if (waitedMs !== undefined) this.#wait.record(Math.max(0, waitedMs) / 1000, this.#waitAttrs(first.venue, answer));
    if (kind === 'error' && answer.error.code === 'backend_unavailable') this.unavailable(operation);
  }

  /** Counts one `backend_unavailable` answer of any method. */
  unavailable(operation: OperationName): void {
    let t = this.#unavailable.get(operation);
    if (t === undefined) {
      t = { attrs: { [ATTR.operation]: OPERATION[operation] }, value: 0 };
      this.#unavailable.set(operation, t);
    }
    t.value++;
  }

  #tally(attrs: Attributes): Tally {
    const t: Tally = { attrs, value: 0 };
    this.#tallies.push(t);
    return t;
  }

  #seriesOf(venue: string, axis: string): Series {
    let byAxis = this.#series.get(venue);
    const s = byAxis?.get(axis);
    if (s !== undefined) return s;
    if (this.#count >= this.#maxSeries) {
      // bounded: a venue already seen keeps its name; its further axes share one series
      const v = byAxis === undefined ? OTHER_AXIS : venue;
      if (v !== venue) byAxis = this.#series.get(v);
      const other = byAxis?.get(OTHER_AXIS);
      if (other !== undefined) return other;
      return this.#add(v, OTHER_AXIS);
    }
    return this.#add(venue, axis);
  }

  #add(venue: string, axis: string): Series {
    let byAxis = this.#series.get(venue);
    if (byAxis === undefined) {
      byAxis = new Map();
      this.#series.set(venue, byAxis);
    }
    const s: Series = { venue, axis, plain: ADMISSION_OPS.map(() => [undefined, undefined, undefined]), errors: new Map(), pacing: isPacingAxis(axis) };
    byAxis.set(axis, s);
    this.#count++;
    return s;
  }

  #venue(venue: string): VenueAttrs {
    const name = this.#series.has(venue) ? venue : OTHER_AXIS;
    let v = this.#venues.get(name);
    if (v === undefined) {
      v = { wait: new Map(), lead: ADMISSION_OPS.map(() => undefined) };
      this.#venues.set(name, v);
    }
    return v;
  }

  #leadAttrs(venue: string, op: number): Attributes {
    const v = this.#venue(venue);
    let a = v.lead[op];
    if (a === undefined) {
      a = { [ATTR.venue]: this.#series.has(venue) ? venue : OTHER_AXIS, [ATTR.operation]: OPERATION[ADMISSION_OPS[op] as AdmissionOperation] };
      v.lead[op] = a;
    }
    return a;
  }

  #waitAttrs(venue: string, answer: Decision | WaitDecision): Attributes {
    const v = this.#venue(venue);
    const code = answer.kind === 'error' ? answer.error.code : '';
    const id = `${answer.kind} ${code}`;
    let a = v.wait.get(id);
    if (a === undefined) {
      const name = this.#series.has(venue) ? venue : OTHER_AXIS;
      a =
        answer.kind === 'error'
          ? { [ATTR.venue]: name, [ATTR.decision]: 'error', [ATTR.errorType]: code }
          : { [ATTR.venue]: name, [ATTR.decision]: answer.kind };
      v.wait.set(id, a);
    }
    return a;
  }
}
