import type { BucketSpec, EndpointSpec, Identity, VenueRequest } from '@core/exchange-specs';

/** A response the emulator sends: status, extra headers (lower-case names) and a JSON (or text) body. */
export interface EmulatedResponse {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** The ban state of one client address, kept by the emulator and changed by the style. */
export interface AddressState {
  /** Until when the last refusal told the client to wait (its Retry-After), epoch ms. */
  retryUntilMs: number;
  /** Until when the address is banned, epoch ms (0 = not banned). */
  bannedUntilMs: number;
  /** The next ban's length (a venue that escalates doubles it). */
  nextBanMs: number;
}

/** What a style needs to word a refusal. */
export interface RefusalContext {
  /** The bucket that had no room (the first one checked, in the spec's order of charges). */
  readonly bucket: BucketSpec;
  readonly used: number;
  readonly limit: number;
  /** When the bucket has room again at the latest (window end, or the counter's drain time). */
  readonly resetAtMs: number;
  readonly nowMs: number;
  readonly address: AddressState;
}

/** A refusal and, when the venue bans the address for it, the ban's end. */
export interface Refusal {
  readonly response: EmulatedResponse;
  readonly banUntilMs?: number;
}

/** What a style needs to answer an admitted request. */
export interface SuccessContext {
  readonly endpoint: EndpointSpec | null;
  readonly request: VenueRequest;
  readonly nowMs: number;
  /** Who asked (the API-key header, and the account's uid and tier from the emulator's `accounts`). */
  readonly identity: Identity;
  /** The requester's tier (its own, else the spec's default tier). */
  readonly tier?: string;
  /**
   * Every bucket of the spec with the requester's tier applied: the numbers the emulator enforces
   * for this requester, which a venue's limits endpoint states (`exchangeInfo`, `apilimit/query`...).
   */
  readonly limits: readonly BucketSpec[];
  /** The cost used now on one of the requester's unpartitioned buckets (0 when nothing was charged there). */
  used(bucketId: string): number;
}

/**
 * How one venue talks: which header carries the API key, what its success bodies look like, and how
 * it refuses (status, body, Retry-After, bans).
 */
export interface VenueStyle {
  readonly name: string;
  /** Lower-case header carrying the API key. */
  readonly apiKeyHeader: string;
  success(context: SuccessContext): EmulatedResponse;
  /** A request inside every limit that the emulator fails on purpose (its `failShare`): the venue's own rejection. */
  fail?(context: SuccessContext): EmulatedResponse;
  /**
   * A request inside every limit that the venue refuses for what it carries (Binance: a `timestamp` outside
   * its `recvWindow`, -1021), charged like a failure; `undefined` to answer it. Counted in `stats().rejected`.
   */
  reject?(context: SuccessContext): EmulatedResponse | undefined;
  /** A request over a documented limit. */
  refuse(context: RefusalContext): Refusal;
  /** A request from a banned address. */
  banned(address: AddressState, nowMs: number): EmulatedResponse;
  /** A request the venue cannot price or route (unknown endpoint, missing parameter...). */
  badRequest(code: string, message: string): EmulatedResponse;
}

/** Whole seconds until `untilMs`, at least 1 (the `Retry-After` header's unit). */
export function retryAfterSeconds(untilMs: number, nowMs: number): string {
  return String(Math.max(1, Math.ceil((untilMs - nowMs) / 1000)));
}
