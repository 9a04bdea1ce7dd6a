/**
 * Where a spec's numbers come from and how they were checked: sources, the provenance (quote and
 * confidence) of each number, its deviations from the quote, and the verification record. Part of the
 * schema of {@link VenueSpec} (venue-spec.ts, which re-exports these types).
 */
import type { VenueSpec } from './venue-spec.js';

/** How far a number can be trusted. */
export type Confidence = 'documented' | 'ccxt-derived' | 'observed' | 'uncertain';

/** Where a number came from: a URL and the date it was read (YYYY-MM-DD, or YYYY-MM when only the month is known). */
export interface Source {
  readonly url: string;
  /** The date the source was read and the number confirmed, `YYYY-MM-DD` (or `YYYY-MM`). */
  readonly retrieved: string;
  readonly note?: string;
}

/**
 * The provenance of the numbers of one bucket, endpoint, cost rule or feedback/error rule: an id
 * of {@link VenueSpec.sources} and a confidence.
 */
export interface Provenance {
  /** A key of {@link VenueSpec.sources}. */
  readonly source: string;
  readonly confidence: Confidence;
  /**
   * The venue documentation's own words for the numbers this provenance covers: the sentence or
   * table row, quoted verbatim (trimmed, whitespace collapsed). Required in a spec that carries
   * {@link VenueSpec.verification}: every number it ships names the sentence it comes from.
   */
  readonly quote?: string;
  /**
   * The numbers this provenance covers that its quote does not state, each with why: the quote stays the
   * source's words, and a number that differs from them says so here.
   */
  readonly deviations?: readonly Deviation[];
}

/**
 * Why a number differs from the quote of its provenance.
 * - `conservative`: the safe side of what the source states or leaves unsaid (a higher cost, a lower
 *   limit, a longer wait, a default where the source names none).
 * - `tier`: the value of a tier or account level the quote does not list.
 * - `formula`: derived from the quoted numbers (a unit conversion, a third of a minute limit, n/2 per order).
 */
export interface Deviation {
  /** The number as the spec has it. */
  readonly value: number;
  readonly reason: 'conservative' | 'tier' | 'formula';
  /** What the source says and why the spec has this number instead. */
  readonly text: string;
}

/** A number that was wrong in an earlier version of a spec, and what it is now. */
export interface Correction {
  /** What the number is, e.g. `orders_10s limit` or `GET /fapi/v1/premiumIndex weight without symbol`. */
  readonly what: string;
  readonly was: string;
  readonly now: string;
  /** A key of {@link VenueSpec.sources}: where the correct number is documented. */
  readonly source: string;
}

/**
 * A comparison with a second, independent source (ccxt's cost tables, Hummingbot's per-connector
 * rate-limit constants): what it says where it differs from the venue's documentation, and who is
 * right.
 */
export interface CrossCheck {
  /** The second source, e.g. `ccxt 4.5.84 binance.js` or `hummingbot binance/binance_constants.py`. */
  readonly other: string;
  readonly what: string;
  /** What this spec ships (the venue's documentation). */
  readonly ours: string;
  /** What the second source says. */
  readonly theirs: string;
  /** Who is right and why (usually: the venue's documentation, quoted in the spec). */
  readonly verdict: string;
}

/** How a hand-authored spec was verified against the venue's own documentation. */
export interface Verification {
  /** The date every number of the spec was last checked against the venue's documentation (YYYY-MM-DD). */
  readonly checked: string;
  /** Numbers found wrong and corrected at that check. */
  readonly corrections: readonly Correction[];
  /** Second sources compared, and every disagreement found. */
  readonly crossChecks: readonly CrossCheck[];
}
