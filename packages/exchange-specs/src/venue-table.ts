import { getVenueSpec, listVenues, type VenueListing } from './registry.js';
import type { BucketSpec, Confidence, VenueSpec } from './venue-spec.js';

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
  const partition = b.partition === undefined ? '' : b.partition.kind === 'endpoint' ? ' per endpoint' : b.partition.kind === 'param' ? ` per ${b.partition.param}` : ` per ${b.partition.field} of items`;
  const size = b.algorithm === 'token-bucket' ? `${b.capacity} + ${b.refillPerSec}/s` : `${b.limit} / ${duration(b.windowMs)}`;
  return `\`${b.id}\` ${size} (${b.scope}${partition}, ${ALGORITHM[b.algorithm]})`;
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
    '| Id | Also | Origin | Rate (units/s) | Endpoints | ccxt | Retrieved |',
    '|---|---|---|---|---|---|---|',
    ...generated.map((v) => {
      const s = getVenueSpec(v.id);
      const b = s.buckets[0];
      const rate = b !== undefined && b.algorithm === 'token-bucket' ? String(Math.round(b.refillPerSec * 1000) / 1000) : '?';
      const src = s.sources['ccxt'];
      return `| \`${s.id}\` | ${v.aliases.map((a) => `\`${a}\``).join(' ')} | ${v.evidence} | ${rate} | ${s.endpoints.length} | ${s.ccxtVersion ?? ''} | ${src?.retrieved ?? ''} |`;
    }),
  ];
}

/**
 * The README's venue table (markdown): one row per hand-authored spec (buckets, sources, retrieved
 * dates, confidence counts over buckets, endpoints and rules), then the names and the ccxt-derived
 * specs (see `ccxtSection`).
 */
export function venueTable(): string {
  const venues = listVenues();
  const hand = venues.filter((v) => v.origin === 'hand-authored').map((v) => getVenueSpec(v.id));
  const lines = [
    '| Venue | Product | Buckets | Endpoints | Sources | Retrieved | Confidence |',
    '|---|---|---|---|---|---|---|',
    ...hand.map((s) => {
      const sources = Object.entries(s.sources).map(([id, src]) => `[${id}](${src.url})`).join(' ');
      const dates = [...new Set(Object.values(s.sources).map((src) => src.retrieved))].sort().join(', ');
      return `| \`${s.id}\` | ${cell(`${s.venue}: ${s.product}`)} | ${cell(s.buckets.map(bucketText).join('<br>'))} | ${s.endpoints.length}${s.fallback === undefined ? '' : ' + default'} | ${sources} | ${dates} | ${confidences(s)} |`;
    }),
    '',
    ...ccxtSection(venues),
  ];
  return lines.join('\n');
}
