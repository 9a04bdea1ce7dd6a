import type { BucketUsage } from '@core/venue-emulator';

const WIDTH = 760;
const PANEL_HEIGHT = 176;
const MARGIN_LEFT = 64;
const MARGIN_RIGHT = 16;
const TITLE_SIZE = 15;
const TEXT_SIZE = 11;
/** The average advance of a sans-serif character, as a share of its font size (a safe over-estimate). */
const CHAR_WIDTH = 0.62;

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** How many characters of a font size fit in `px`. */
export function charsThatFit(px: number, fontSize: number): number {
  return Math.max(1, Math.floor(px / (fontSize * CHAR_WIDTH)));
}

/** Words wrapped into lines of at most `max` characters (a longer word is cut with an ellipsis). */
function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const raw of text.split(' ')) {
    const word = raw.length > max ? `${raw.slice(0, max - 1)}…` : raw;
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= max) line = `${line} ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** A text cut to `max` characters with an ellipsis. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

function describeLimit(b: BucketUsage): string {
  if (b.algorithm === 'token-bucket') return `capacity ${fmt(b.limit)}, refill ${fmt(b.refillPerSec ?? 0)}/s (counter level per second)`;
  return `${fmt(b.limit)} per ${b.windowMs >= 1000 ? `${fmt(b.windowMs / 1000)} s` : `${b.windowMs} ms`} (${b.algorithm})`;
}

/** Tick positions (seconds from the start) for a span of `spanS` seconds: about six round steps. */
function ticks(spanS: number): number[] {
  const steps = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400];
  const step = steps.find((s) => spanS / s <= 6) ?? spanS / 6;
  const out: number[] = [];
  for (let t = 0; t <= spanS + 1e-9; t += step) out.push(t);
  return out;
}

function tickLabel(t: number): string {
  if (t >= 3600 && t % 3600 === 0) return `${t / 3600} h`;
  if (t >= 60 && t % 60 === 0) return `${t / 60} min`;
  return `${fmt(t)} s`;
}

/**
 * An SVG chart of usage per window against the limit: one panel per bucket, bars for the cost the
 * venue admitted in each window (for a token bucket, the counter's peak in each second), a red line at
 * the limit, and a time axis in seconds from the panel's first window. A last window that the end of
 * the run cut short (it ends after `endMs`) is drawn faded and marked "partial": its bar is not a full
 * window's usage. Long titles wrap and long names are cut to fit the width.
 *
 * @param title - the chart's heading.
 * @param buckets - one instance per limit (the busiest one).
 * @param limitName - what the limit is called in the legend (default "documented limit"; a
 * ccxt-derived spec's is "limit estimated from ccxt").
 * @param endMs - when the run ended (the emulator's clock): marks a last partial window.
 */
export function renderUsageChart(title: string, buckets: readonly BucketUsage[], limitName = 'documented limit', endMs?: number): string {
  const usable = WIDTH - 24;
  const titleLines = wrap(title, charsThatFit(usable, TITLE_SIZE));
  const legend = wrap(
    `bars: usage per window as the venue counted it; red line: the ${limitName}; a faded bar marked "partial" is the last window, cut short by the end of the run`,
    charsThatFit(usable, TEXT_SIZE),
  );
  const top = 14 + titleLines.length * 20 + legend.length * 15 + 10;
  const height = top + Math.max(1, buckets.length) * PANEL_HEIGHT + 16;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="${TEXT_SIZE}">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
  ];
  titleLines.forEach((line, i) => parts.push(`<text x="12" y="${24 + i * 20}" font-size="${TITLE_SIZE}" font-weight="bold">${esc(line)}</text>`));
  legend.forEach((line, i) => parts.push(`<text x="12" y="${14 + titleLines.length * 20 + 6 + i * 15}" fill="#555">${esc(line)}</text>`));
  if (buckets.length === 0) parts.push(`<text x="12" y="${top + 20}">no bucket saw a request</text>`);
  const plotWidth = WIDTH - MARGIN_LEFT - MARGIN_RIGHT;
  buckets.forEach((b, index) => {
    const y0 = top + index * PANEL_HEIGHT;
    const plotTop = y0 + 36;
    const plotHeight = PANEL_HEIGHT - 76;
    const values = b.windows.map((w) => (b.algorithm === 'token-bucket' ? w.peakUsed : w.cost));
    const peak = Math.max(b.limit, ...values) * 1.1 || 1;
    const yOf = (v: number): number => plotTop + plotHeight - (v / peak) * plotHeight;
    const util = b.utilization === null ? 'utilization n/a (no complete window yet)' : `${(b.utilization * 100).toFixed(1)}% per complete window`;
    const name = `${b.axis}${b.credentialHash === null ? ' (IP)' : ` (key ${b.credentialHash})`}`;
    parts.push(`<text x="12" y="${y0 + 14}" font-weight="bold">${esc(cut(name, charsThatFit(usable, TEXT_SIZE)))}</text>`);
    parts.push(`<text x="12" y="${y0 + 28}" fill="#555">${esc(cut(`${describeLimit(b)}; ${util}`, charsThatFit(usable, TEXT_SIZE)))}</text>`);
    parts.push(`<line x1="${MARGIN_LEFT}" y1="${plotTop + plotHeight}" x2="${WIDTH - MARGIN_RIGHT}" y2="${plotTop + plotHeight}" stroke="#999"/>`);
    parts.push(`<text x="${MARGIN_LEFT - 6}" y="${yOf(0) + 4}" text-anchor="end">0</text>`);
    parts.push(
      `<text x="${MARGIN_LEFT - 6}" y="${yOf(b.limit) + 4}" text-anchor="end">${esc(cut(fmt(b.limit), charsThatFit(MARGIN_LEFT - 8, TEXT_SIZE)))}</text>`,
    );
    const first = b.windows[0];
    const last = b.windows[b.windows.length - 1];
    const startMs = first?.startMs ?? 0;
    const spanMs = last === undefined ? 1 : Math.max(1, last.endMs - startMs);
    const xOf = (ms: number): number => MARGIN_LEFT + ((ms - startMs) / spanMs) * plotWidth;
    b.windows.forEach((w, i) => {
      const v = values[i] ?? 0;
      const x0 = xOf(w.startMs);
      const slot = xOf(w.endMs) - x0;
      const x = x0 + slot * 0.1;
      const y = yOf(v);
      const over = v > b.limit + 1e-9;
      const partial = endMs !== undefined && i === b.windows.length - 1 && w.endMs > endMs + 1e-9;
      const fill = over ? '#d62728' : '#4c78a8';
      const style = partial ? ` fill-opacity="0.35" stroke="${fill}" stroke-dasharray="3 2"` : '';
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(0.5, slot * 0.8).toFixed(1)}" height="${(plotTop + plotHeight - y).toFixed(1)}" fill="${fill}"${style}><title>${esc(fmt(v))}${partial ? ' (partial window)' : ''}</title></rect>`,
      );
      if (partial)
        parts.push(
          `<text x="${(x + (slot * 0.8) / 2).toFixed(1)}" y="${(Math.min(y, yOf(b.limit)) - 4).toFixed(1)}" text-anchor="middle" fill="#555">partial</text>`,
        );
    });
    parts.push(
      `<line x1="${MARGIN_LEFT}" y1="${yOf(b.limit).toFixed(1)}" x2="${WIDTH - MARGIN_RIGHT}" y2="${yOf(b.limit).toFixed(1)}" stroke="#d62728" stroke-width="1.5"/>`,
    );
    // the time axis: seconds from the panel's first window
    const axisY = plotTop + plotHeight;
    for (const t of ticks(spanMs / 1000)) {
      const x = xOf(startMs + t * 1000);
      parts.push(`<line x1="${x.toFixed(1)}" y1="${axisY}" x2="${x.toFixed(1)}" y2="${axisY + 4}" stroke="#999"/>`);
      parts.push(`<text x="${x.toFixed(1)}" y="${axisY + 15}" text-anchor="middle" fill="#555">${esc(tickLabel(t))}</text>`);
    }
    const windowText = b.windowMs >= 1000 ? `${fmt(b.windowMs / 1000)} s` : `${b.windowMs} ms`;
    parts.push(
      `<text x="${MARGIN_LEFT}" y="${axisY + 30}" fill="#555">time since the first window (${b.windows.length} window(s) of ${esc(windowText)})</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
