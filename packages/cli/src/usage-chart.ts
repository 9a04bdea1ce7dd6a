import type { BucketUsage } from '@core/venue-emulator';

const WIDTH = 760;
const PANEL_HEIGHT = 150;
const MARGIN_LEFT = 64;
const MARGIN_RIGHT = 16;
const TOP = 56;

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

function describeLimit(b: BucketUsage): string {
  if (b.algorithm === 'token-bucket') return `capacity ${fmt(b.limit)}, refill ${fmt(b.refillPerSec ?? 0)}/s (counter level per second)`;
  return `${fmt(b.limit)} per ${b.windowMs >= 1000 ? `${fmt(b.windowMs / 1000)} s` : `${b.windowMs} ms`} (${b.algorithm})`;
}

/**
 * An SVG chart of usage per window against the limit: one panel per bucket, bars for the cost the
 * venue admitted in each window (for a token bucket, the counter's peak in each second) and a red
 * line at the limit.
 *
 * @param title - the chart's heading.
 * @param buckets - one instance per limit (the busiest one).
 * @param limitName - what the limit is called in the legend (default "documented limit"; a
 * ccxt-derived spec's is "limit estimated from ccxt").
 */
export function renderUsageChart(title: string, buckets: readonly BucketUsage[], limitName = 'documented limit'): string {
  const height = TOP + Math.max(1, buckets.length) * PANEL_HEIGHT + 16;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`,
    `<text x="12" y="40" fill="#555">bars: usage per window as the venue counted it; red line: the ${esc(limitName)}</text>`,
  ];
  if (buckets.length === 0) parts.push(`<text x="12" y="${TOP + 20}">no bucket saw a request</text>`);
  buckets.forEach((b, index) => {
    const y0 = TOP + index * PANEL_HEIGHT;
    const plotTop = y0 + 22;
    const plotHeight = PANEL_HEIGHT - 48;
    const plotWidth = WIDTH - MARGIN_LEFT - MARGIN_RIGHT;
    const values = b.windows.map((w) => (b.algorithm === 'token-bucket' ? w.peakUsed : w.cost));
    const top = Math.max(b.limit, ...values) * 1.1 || 1;
    const yOf = (v: number): number => plotTop + plotHeight - (v / top) * plotHeight;
    const util = b.utilization === null ? 'n/a (no complete window yet)' : `${(b.utilization * 100).toFixed(1)}% per complete window`;
    parts.push(`<text x="12" y="${y0 + 14}" font-weight="bold">${esc(b.axis)}${b.credentialHash === null ? ' (IP)' : ` (key ${esc(b.credentialHash)})`}</text>`);
    parts.push(`<text x="${WIDTH - MARGIN_RIGHT}" y="${y0 + 14}" text-anchor="end" fill="#555">${esc(describeLimit(b))}; ${esc(util)}</text>`);
    parts.push(`<line x1="${MARGIN_LEFT}" y1="${plotTop + plotHeight}" x2="${WIDTH - MARGIN_RIGHT}" y2="${plotTop + plotHeight}" stroke="#999"/>`);
    parts.push(`<text x="${MARGIN_LEFT - 6}" y="${yOf(0) + 4}" text-anchor="end">0</text>`);
    parts.push(`<text x="${MARGIN_LEFT - 6}" y="${yOf(b.limit) + 4}" text-anchor="end">${esc(fmt(b.limit))}</text>`);
    const n = Math.max(1, values.length);
    const slot = plotWidth / n;
    values.forEach((v, i) => {
      const x = MARGIN_LEFT + i * slot + slot * 0.1;
      const y = yOf(v);
      const over = v > b.limit + 1e-9;
      parts.push(`<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(0.5, slot * 0.8).toFixed(1)}" height="${(plotTop + plotHeight - y).toFixed(1)}" fill="${over ? '#d62728' : '#4c78a8'}"><title>${esc(fmt(v))}</title></rect>`);
    });
    parts.push(`<line x1="${MARGIN_LEFT}" y1="${yOf(b.limit).toFixed(1)}" x2="${WIDTH - MARGIN_RIGHT}" y2="${yOf(b.limit).toFixed(1)}" stroke="#d62728" stroke-width="1.5"/>`);
    parts.push(`<text x="${MARGIN_LEFT}" y="${plotTop + plotHeight + 14}" fill="#555">${values.length} window(s) of ${esc(b.windowMs >= 1000 ? `${fmt(b.windowMs / 1000)} s` : `${b.windowMs} ms`)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
