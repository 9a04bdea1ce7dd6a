import type { BucketKey } from '@core/rate-limit-contract';
import { bucketKeyId, type AnsweredQuery, type Feedback, type OwnUsage, type VenueCharge } from '@core/exchange-specs';
import { OwnSendLog, type OwnSend } from './own-send-log.js';
import { answeredSinceOf, sentBeforeOf, type SharedSendLog } from './shared-log.js';

/** How long own sends are remembered for the usage syncs (forgetting only makes them more cautious). */
const OWN_LOG_MS = 65_000;
/** The log of a key no send of which was counted yet. */
const EMPTY_LOG = new OwnSendLog();

/** The ids of key objects, made once per object (a request shape's keys are the same objects) and checked against its fields. */
const ids = new WeakMap<BucketKey, { readonly venue: string; readonly credential: string | null; readonly axis: string | undefined; readonly id: string }>();

function ownKey(key: BucketKey): string {
  const kept = ids.get(key);
  if (kept !== undefined && kept.venue === key.venue && kept.credential === key.credential && kept.axis === key.axis) return kept.id;
  const id = bucketKeyId(key);
  ids.set(key, { venue: key.venue, credential: key.credential, axis: key.axis, id });
  return id;
}

function countedNow(c: VenueCharge, feedback: Feedback): boolean {
  if (!feedback.counted) return false;
  return c.charge === 'always' || (c.charge === 'success') === (feedback.verdict === 'ok');
}

/** One answered request, as the own sends' questions take it. */
export interface AnsweredRequest {
  /** The venue's spec id. */
  readonly venue: string;
  /** When its answer arrived (this fetch's clock). */
  readonly respondedAt: number;
  /** Its send time as the limiter keeps it (its admission's). */
  readonly keptAt: number;
  /** When it actually went out (this fetch's clock). */
  readonly sentAt: number;
  /** Its place among the sends and answers of the fetches on one limiter (`SharedSendLog.seq` when it went out). */
  readonly sendSeq: number;
}

/**
 * The own sends of the paced fetches on one limiter object in this process, per bucket key (a bucket of the IP is
 * sent on by every credential's fetch), so that a usage header holds the limiter back only by what other clients
 * spent (exchange-specs' `OwnUsage`): a send counts once its response arrived before the request being interpreted
 * was sent (the venue had counted it when it answered).
 */
export class OwnSends {
  readonly #log: SharedSendLog;

  constructor(log: SharedSendLog) {
    this.#log = log;
  }

  /** Remembers the charges the venue counted for an answered send, per key (what later usage reports may take as counted). */
  remember(charges: readonly VenueCharge[], feedback: Feedback, sentAt: number, respondedAt: number, answerSeq: number): void {
    let syncIds: string[] | undefined;
    for (const c of charges) {
      if (c.cost <= 0 || !countedNow(c, feedback)) continue;
      const id = ownKey(c.key);
      let log = this.#log.sends.get(id);
      if (log === undefined) this.#log.sends.set(id, (log = new OwnSendLog()));
      log.forget(respondedAt - OWN_LOG_MS);
      syncIds ??= feedback.syncs.map((s) => ownKey(s.key));
      const sync = feedback.syncs[syncIds.indexOf(id)];
      const reported = sync?.windowElapsedMs === undefined ? undefined : sync.minBorrowed;
      const send: { -readonly [K in keyof OwnSend]: OwnSend[K] } = { sentAtMs: sentAt, answeredAtMs: respondedAt, answerSeq, cost: c.cost };
      if (sync?.windowEnd !== undefined) send.windowEnd = sync.windowEnd;
      if (reported !== undefined) send.reportedUsed = reported;
      log.push(send);
    }
  }

  /** What this process knows of its own sends when it reads the answer of `r` (exchange-specs' `OwnUsage`). */
  usage(r: AnsweredRequest): OwnUsage {
    return new OwnView(this.#log, r);
  }
}

/**
 * What the own sends on one limiter tell of the answer of one request (exchange-specs' `OwnUsage` and
 * `OwnWindowSends`), its questions as methods: one object a request, no closures.
 */
class OwnView implements OwnUsage {
  readonly nowMs: number;
  readonly sentAtMs: number;
  readonly #log: SharedSendLog;
  readonly #r: AnsweredRequest;

  constructor(log: SharedSendLog, r: AnsweredRequest) {
    this.#log = log;
    this.#r = r;
    this.nowMs = r.respondedAt;
    this.sentAtMs = r.keptAt;
  }

  #of(key: BucketKey): OwnSendLog | undefined {
    return this.#log.sends.get(ownKey(key));
  }

  usage(key: BucketKey, since: number): number {
    return this.#of(key)?.usage(since, this.#r.sentAt) ?? 0;
  }

  /** Answered before this request actually went out. */
  answered(key: BucketKey): Iterable<OwnSend> {
    return this.#of(key)?.answered(this.#r.sendSeq) ?? [];
  }

  answeredQuery(key: BucketKey): AnsweredQuery {
    return (this.#of(key) ?? EMPTY_LOG).query(this.#r.sendSeq);
  }

  /** Answered while this request was on its way (every answer logged so far came before this one's). */
  answeredMeanwhile(key: BucketKey): Iterable<OwnSend> {
    return this.#of(key)?.answeredAfter(this.#r.sendSeq) ?? [];
  }

  answeredSince(venueMs: number): number | undefined {
    return answeredSinceOf(this.#log, this.#r.venue, venueMs);
  }

  sentBefore(venueMs: number): number | undefined {
    return sentBeforeOf(this.#log, this.#r.venue, venueMs);
  }
}
