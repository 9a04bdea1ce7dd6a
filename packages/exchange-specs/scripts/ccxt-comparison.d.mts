// Types of ccxt-comparison.mjs (the generator runs it with plain Node; the test imports it).
import type { CcxtModule } from './ccxt-harness.mjs';

/** One endpoint of a hand-authored spec against ccxt's cost for the same call. */
export interface ComparisonRow {
  readonly venue: string;
  readonly endpoint: string;
  readonly method: string;
  readonly path: string;
  readonly ccxt?: {
    readonly id: string;
    readonly endpoint: string;
    readonly cost: number | null;
    readonly rateLimitMs: number;
    readonly perSec: number | null;
  };
  readonly spec?: {
    readonly perSec?: number | null;
    readonly bucket?: string | null;
    readonly cost?: number;
    readonly filled?: readonly string[];
    readonly refused?: string;
  };
  readonly verdict: 'faster' | 'not-faster' | 'no-ccxt-endpoint' | 'spec-refused';
}

/** What the comparison reads of the package (its built `dist` or its sources). */
export interface ComparisonLib {
  readonly handAuthoredSpecs: readonly unknown[];
  readonly resolveCharges: (...args: never[]) => unknown;
  readonly bucketForTier: (...args: never[]) => unknown;
}

export declare function ccxtComparison(ccxt: CcxtModule, lib: ComparisonLib): ComparisonRow[];
