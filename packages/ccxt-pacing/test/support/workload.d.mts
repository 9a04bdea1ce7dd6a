import type { Exchange } from 'ccxt';
import type { CcxtVenueSetup, PaceExchangeOptions } from '../../src/index.js';

export interface WorkloadCounts {
  calls: number;
  byMethod: Record<string, number>;
  errors: Record<string, number>;
  samples: string[];
}
export function makeExchange(
  name: string,
  baseBySpec: Readonly<Record<string, string>>,
  options?: { apiKey?: string; pace?: PaceExchangeOptions; options?: Record<string, unknown>; fetchImplementation?: typeof fetch },
): { ex: Exchange; setup: CcxtVenueSetup };
export const ROUND: readonly string[];
export function runWorkload(
  ex: Exchange,
  setup: CcxtVenueSetup,
  options: { workers: number; stop: () => boolean; calls?: readonly string[]; first?: number },
): Promise<WorkloadCounts>;
