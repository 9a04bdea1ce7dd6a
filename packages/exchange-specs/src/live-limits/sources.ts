import type { VenueSpec } from '../venue-spec.js';
import { binanceSpotSources, binanceUsdmSources } from './binance.js';
import { bybitSources } from './bybit.js';
import { kucoinSources } from './kucoin.js';
import type { LiveLimitSource } from './live-limit-source.js';
import { okxSources } from './okx.js';

const ALL: readonly LiveLimitSource[] = [...binanceSpotSources, ...binanceUsdmSources, ...bybitSources, ...okxSources, ...kucoinSources];

/**
 * The endpoints where a venue publishes its current limits or the account's tier, for a spec (or
 * spec id): Binance spot and USDⓈ-M `exchangeInfo` and `rateLimit/order`, Bybit `apilimit/query`,
 * OKX `account-rate-limit`, KuCoin `user-info`. Empty for a venue that publishes none.
 */
export function liveLimitSources(spec: VenueSpec | string): readonly LiveLimitSource[] {
  const id = typeof spec === 'string' ? spec : spec.id;
  return ALL.filter((s) => s.venue === id);
}

/**
 * The spec with the live-limit endpoints it does not list yet (Bybit `GET /v5/apilimit/query`,
 * KuCoin `GET /api/v2/user-info`), each with its documented cost, so a paced client can price them
 * and an emulator can answer them. An endpoint the spec already lists (same method and path) is
 * left as the spec has it; one whose bucket ids clash with the spec's, or whose cost names a bucket
 * the spec lacks, is not added. Returns the same object when nothing is added.
 */
export function withLiveLimitEndpoints(spec: VenueSpec): VenueSpec {
  let endpoints = spec.endpoints;
  let buckets = spec.buckets;
  let sources = spec.sources;
  for (const s of liveLimitSources(spec)) {
    const add = s.endpoint;
    if (add === undefined) continue;
    if (endpoints.some((e) => e.method === add.spec.method && e.path === add.spec.path)) continue;
    if (endpoints.some((e) => e.id === add.spec.id)) continue;
    if (add.buckets.some((b) => buckets.some((x) => x.id === b.id))) continue;
    const known = new Set([...buckets, ...add.buckets].map((b) => b.id));
    if (!add.spec.costs.every((c) => known.has(c.bucket))) continue;
    if (Object.keys(add.sources).some((k) => k in sources)) continue;
    endpoints = [...endpoints, add.spec];
    buckets = [...buckets, ...add.buckets];
    sources = { ...sources, ...add.sources };
  }
  return endpoints === spec.endpoints ? spec : { ...spec, sources, buckets, endpoints };
}
