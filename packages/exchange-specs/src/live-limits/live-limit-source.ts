import type { Identity } from '../venue-io.js';
import type { BucketSpec, EndpointSpec, Source, VenueSpec } from '../venue-spec.js';

/**
 * A documentation sentence (or table row, or example) for one field of a venue's answer: what
 * the field means, in the venue's own words.
 */
export interface FieldDocumentation {
  /** The field, e.g. `rateLimits[].intervalNum` or `data[0].accRateLimit`. */
  readonly field: string;
  readonly url: string;
  /** When it was read, `YYYY-MM-DD`. */
  readonly retrieved: string;
  /** The documentation's words, verbatim (whitespace collapsed). */
  readonly quote: string;
}

/** A limit the venue stated, mapped onto a bucket of the spec. */
export interface StatedLimit {
  /** The bucket's id in the spec. */
  readonly bucket: string;
  /** The window the venue stated the limit for; it must equal the bucket's `windowMs`. */
  readonly windowMs: number;
  /** The venue's number: at most this much cost per window. */
  readonly limit: number;
  /** Where in the answer (`rateLimits[1]`). */
  readonly field: string;
  /** The venue's own statement, as it answered (compact JSON of the entry). */
  readonly statement: string;
}

/** A tier the venue stated for the account (a key of the buckets' `tiers`). */
export interface StatedTier {
  readonly tier: string;
  readonly field: string;
  readonly statement: string;
}

/** What one answer states. */
export interface LiveStatement {
  readonly limits: readonly StatedLimit[];
  readonly tier?: StatedTier;
}

/** What a parser knows besides the answer. */
export interface ParseContext {
  /** The spec the statement will replace numbers of. */
  readonly spec: VenueSpec;
  readonly identity: Identity;
  /** The source's label for errors: `binance-spot GET /api/v3/exchangeInfo`. */
  readonly source: string;
}

/**
 * An endpoint a venue publishes its current limits (or the account's tier) at, with the
 * documentation of every field it reads, and the strict parser of its answer.
 */
export interface LiveLimitSource {
  /** Unique within the venue, e.g. `exchangeInfo`, `rateLimit/order`. */
  readonly id: string;
  /** The spec id it belongs to (`binance-spot`). */
  readonly venue: string;
  readonly method: 'GET';
  readonly path: string;
  /** `private` sources are signed requests of an account (the `authenticate` hook signs them). */
  readonly auth: 'public' | 'private';
  /**
   * The query parameters the request needs, from the identity: a record, or the name of the
   * identity field that is missing (the read then fails with `missing_parameter`).
   */
  readonly query?: (identity: Identity) => Readonly<Record<string, string>> | { readonly missing: string };
  /** The documentation of every field the parser reads. */
  readonly documentation: readonly FieldDocumentation[];
  /**
   * The endpoint with its documented cost, for specs that do not list it yet (so the paced client
   * can price it and the emulator can answer it), and the buckets and sources it needs.
   */
  readonly endpoint?: {
    readonly spec: EndpointSpec;
    readonly buckets: readonly BucketSpec[];
    readonly sources: Readonly<Record<string, Source>>;
  };
  /** Reads the answer's body; throws a `LiveLimitsError` for anything the documentation does not describe. */
  readonly parse: (body: unknown, context: ParseContext) => LiveStatement;
}
