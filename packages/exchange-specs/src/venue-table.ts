import { getVenueSpec, listVenues, type VenueListing } from './registry.js';
import type { BucketSpec, Confidence, Market, VenueSpec } from './venue-spec.js';

function duration(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

const ALGORITHM: Record<BucketSpec['algorithm'], string> = {
  'fixed-window-aligned': 'aligned',
  'fixed-window-anchored': 'anchored',
  'sliding-window': 'sliding',
  'token-bucket': 'token bucket',
};

function bucketText(b: BucketSpec): string {
  const partition =
    b.partition === undefined
      ? ''
      : b.partition.kind === 'endpoint'
        ? ' per endpoint'
        : b.partition.kind === 'param'
          ? ` per ${b.partition.param}`
          : ` per ${b.partition.field} of items`;
  const size = b.algorithm === 'token-bucket' ? `${b.capacity} + ${b.refillPerSec}/s` : `${b.limit} / ${duration(b.windowMs)}`;
  const tiers = Object.keys(b.tiers ?? {}).length;
  return `\`${b.id}\` ${size} (${b.scope}${partition}, ${ALGORITHM[b.algorithm]}${tiers === 0 ? '' : `; ${tiers} tiers`})`;
}

function confidences(spec: VenueSpec): string {
  const counts = new Map<Confidence, number>();
  const add = (c: Confidence): void => {
    counts.set(c, (counts.get(c) ?? 0) + 1);
  };
  for (const b of spec.buckets) add(b.provenance.confidence);
  for (const e of spec.endpoints) add(e.provenance.confidence);
  for (const r of [...(spec.feedback ?? []), ...(spec.errors ?? [])]) add(r.provenance.confidence);
  return [...counts].map(([c, n]) => `${c} ${n}`).join(', ');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The product columns, in the order the README shows them. */
const MARKETS: readonly { readonly market: Market; readonly title: string }[] = [
  { market: 'spot', title: 'Spot' },
  { market: 'perpetual', title: 'Perpetual' },
  { market: 'delivery', title: 'Delivery' },
  { market: 'options', title: 'Options' },
  { market: 'wallet', title: 'Wallet' },
  { market: 'margin', title: 'Margin' },
];

/** What a ccxt-derived spec covers: ccxt lists no markets per endpoint, so all of its endpoints, estimated. */
const ESTIMATED = 'all endpoints, estimated';

function ids(list: readonly string[]): string {
  return list.map((id) => `\`${id}\``).join(', ');
}

/**
 * The coverage table: one row per venue with a hand-authored spec, one column per market
 * (`documented` and the spec ids whose `markets` include it, `—` when none does), and the ccxt
 * estimates of the venue's exchanges (`ccxt:<id>`, all their endpoints, estimated).
 */
function coverageSection(hand: readonly VenueSpec[], venues: readonly VenueListing[]): string[] {
  const byVenue = new Map<string, VenueSpec[]>();
  for (const s of hand) byVenue.set(s.venue, [...(byVenue.get(s.venue) ?? []), s]);
  const estimates = (specs: readonly VenueSpec[]): string[] => {
    const ccxt = new Set(specs.flatMap((s) => [s.id, ...(s.ccxtIds ?? [])]));
    return venues.filter((v) => v.origin === 'ccxt-derived' && v.ccxtId !== undefined && ccxt.has(v.ccxtId)).map((v) => v.id);
  };
  const others = venues.filter((v) => v.origin === 'ccxt-derived' && !hand.some((s) => s.id === v.ccxtId || (s.ccxtIds ?? []).includes(v.ccxtId ?? '')));
  return [
    "Markets covered, per venue: **documented** means a hand-authored spec (named) prices that market's endpoints from the venue's own documentation; **estimated** means a ccxt-derived spec, which prices every endpoint ccxt lists for an exchange (ccxt names no market per endpoint) at ccxt's own pacing. `—`: no documented spec covers that market.",
    '',
    `| Venue | ${MARKETS.map((m) => m.title).join(' | ')} | Estimated (ccxt) |`,
    `|---|${MARKETS.map(() => '---|').join('')}---|`,
    ...[...byVenue].map(([venue, specs]) => {
      const cells = MARKETS.map(({ market }) => {
        const covering = specs.filter((s) => (s.markets ?? []).includes(market)).map((s) => s.id);
        return covering.length === 0 ? '—' : `documented: ${ids(covering)}`;
      });
      const est = estimates(specs);
      return `| ${cell(venue)} | ${cells.join(' | ')} | ${est.length === 0 ? '—' : `${ids(est)}: ${ESTIMATED}`} |`;
    }),
    `| ${others.length} other venues (below) | ${MARKETS.map(() => ESTIMATED).join(' | ')} | ${ESTIMATED} |`,
  ];
}

/**
 * The ccxt part of the README's venue table: which names resolve to which spec, then one row per
 * ccxt-derived spec ("estimated from ccxt": ccxt's own pacing, not the venue's documentation).
 */
function ccxtSection(venues: readonly VenueListing[]): string[] {
  const generated = venues.filter((v) => v.origin === 'ccxt-derived');
  const aliased = venues.filter((v) => v.origin === 'hand-authored' && v.aliases.length > 0);
  return [
    `Plain venue names mean the documented (hand-authored) spec: ${aliased.map((v) => v.aliases.map((a) => `\`${a}\` → \`${v.id}\``).join(', ')).join(', ')}; every other hand-authored id is also its ccxt id. The ccxt estimate of those exchanges is only reachable as \`ccxt:<id>\`.`,
    '',
    `Estimated from ccxt (${generated.length} venues, ccxt-derived: one \`ccxt\` token bucket each refilled at ccxt's rate, every endpoint ccxt lists at the host and path ccxt sends it to, with the cost ccxt's own \`calculateRateLimiterCost\` charges; not the venues' documented limits):`,
    '',
    '| Id | Also | Origin | Markets | Rate (units/s) | Endpoints | ccxt | Retrieved |',
    '|---|---|---|---|---|---|---|---|',
    ...generated.map((v) => {
      const s = getVenueSpec(v.id);
      const b = s.buckets[0];
      const rate = b !== undefined && b.algorithm === 'token-bucket' ? String(Math.round(b.refillPerSec * 1000) / 1000) : '?';
      const src = s.sources['ccxt'];
      return `| \`${s.id}\` | ${v.aliases.map((a) => `\`${a}\``).join(' ')} | ${v.evidence} | ${ESTIMATED} | ${rate} | ${s.endpoints.length} | ${s.ccxtVersion ?? ''} | ${src?.retrieved ?? ''} |`;
    }),
  ];
}

/**
 * The README's venue table (markdown): the markets each venue's specs cover (see
 * `coverageSection`), one row per hand-authored spec (markets, buckets, sources, retrieved dates, the
 * date its numbers were last checked against the source (`verification.checked`), confidence counts over buckets, endpoints and rules), then the names and the ccxt-derived specs
 * (see `ccxtSection`).
 */
export function venueTable(): string {
  const venues = listVenues();
  const hand = venues.filter((v) => v.origin === 'hand-authored').map((v) => getVenueSpec(v.id));
  const lines = [
    ...coverageSection(hand, venues),
    '',
    '| Venue | Product | Markets | Buckets | Endpoints | Sources | Retrieved | Checked | Confidence |',
    '|---|---|---|---|---|---|---|---|---|',
    ...hand.map((s) => {
      const sources = Object.entries(s.sources)
        .map(([id, src]) => `[${id}](${src.url})`)
        .join(' ');
      const dates = [...new Set(Object.values(s.sources).map((src) => src.retrieved))].sort().join(', ');
      const markets = (s.markets ?? []).join(', ') || '—';
      return `| \`${s.id}\` | ${cell(`${s.venue}: ${s.product}`)} | ${markets} | ${cell(s.buckets.map(bucketText).join('<br>'))} | ${s.endpoints.length}${s.fallback === undefined ? '' : ' + default'} | ${sources} | ${dates} | ${s.verification?.checked ?? 'not yet'} | ${confidences(s)} |`;
    }),
    '',
    ...ccxtSection(venues),
  ];
  return lines.join('\n');
}
