import { lanesFor, type Lane } from './workloads.js';
import type { VenueSpec } from '@core/exchange-specs';
import type { BucketUsage, EmulatorStats } from '@core/venue-emulator';
import { formatTable } from './format-table.js';
import type { WsCounts } from './run-ws-workers.js';

/** How long the emulator keeps a WebSocket connection before dropping it in `--ws` demos (a flapping network). */
export const WS_DROP_MS = 2_500;

/** The REST lanes of a venue for a `--ws` demo: its lanes, or none when the demo has no REST request it can price. */
export function restLanesForWs(spec: VenueSpec): readonly Lane[] {
  try {
    return lanesFor(spec);
  } catch {
    return [];
  }
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function limitText(b: BucketUsage): string {
  if (b.algorithm === 'token-bucket') return `${b.limit} cap, ${b.refillPerSec ?? 0}/s`;
  const w = b.windowMs % 3_600_000 === 0 ? `${b.windowMs / 3_600_000} h` : b.windowMs % 60_000 === 0 ? `${b.windowMs / 60_000} min` : `${b.windowMs / 1000} s`;
  return `${b.limit} / ${w}`;
}

/** The WebSocket bucket id of a ledger's axis (`ws:stream-messages:<connection>` → `stream-messages`). */
function wsBucketId(b: BucketUsage): string {
  return b.bucketId;
}

/**
 * The WebSocket limits of a run beside the REST ones: per WebSocket bucket, its documented limit,
 * how many instances saw traffic (one per connection for per-connection buckets), the busiest
 * instance's admitted cost and peak, and the refusals; then the connection and message counts.
 */
export function wsSummaryTable(stats: EmulatorStats, counts: WsCounts): string {
  const ws = stats.webSocket;
  if (ws === undefined) return '';
  const byId = new Map<string, BucketUsage[]>();
  for (const b of ws.buckets) byId.set(wsBucketId(b), [...(byId.get(wsBucketId(b)) ?? []), b]);
  const rows = [...byId.entries()].map(([id, list]) => {
    const busiest = list.reduce((a, b) => (b.peakUsed > a.peakUsed ? b : a));
    return [
      `ws:${id}`,
      String(list.length),
      limitText(busiest),
      String(list.reduce((s, b) => s + b.admittedCost, 0)),
      pct(busiest.limit > 0 ? busiest.peakUsed / busiest.limit : 0),
      String(list.reduce((s, b) => s + b.refusals, 0)),
    ];
  });
  const table =
    rows.length === 0
      ? '  (no WebSocket bucket saw traffic)'
      : formatTable(['websocket bucket', 'instances', 'documented limit', 'admitted', 'peak (busiest)', 'refused'], rows);
  return (
    `${table}\n` +
    `  websocket: connection attempts ${ws.connectionAttempts}   opened ${ws.connectionsOpened}   refused ${ws.refusedConnections}   ` +
    `messages ${ws.messages} (admitted ${ws.admittedMessages})   violations ${ws.violations}   dropped by the network ${counts.drops}   ` +
    `refused by the client before sending (caps) ${counts.refusedByClient}   market-data events ${ws.pushed}\n`
  );
}

/** The busiest instance of each WebSocket limit, named `ws:<id>`, for the chart beside the REST ones. */
export function wsChartBuckets(stats: EmulatorStats): BucketUsage[] {
  const best = new Map<string, BucketUsage>();
  for (const b of stats.webSocket?.buckets ?? []) {
    const prev = best.get(b.bucketId);
    if (prev === undefined || b.peakUsed > prev.peakUsed) best.set(b.bucketId, b);
  }
  return [...best.values()].map((b) => ({ ...b, axis: `ws:${b.bucketId}` }));
}
