import type { VenueResponse } from './venue-io.js';

/** A response header by lower-case name (the headers' own names may be in any case). */
export function header(response: VenueResponse, name: string): string | undefined {
  const headers = response.headers;
  const v = headers[name];
  if (v !== undefined) return v;
  // (own names in order, as Object.entries lists them, without making its list: most answers lack some headers read)
  for (const k in headers) if (Object.hasOwn(headers, k) && k.toLowerCase() === name) return headers[k];
  return undefined;
}

/** A header read as a finite number, or undefined. */
export function numberHeader(response: VenueResponse, name: string): number | undefined {
  const v = header(response, name);
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** The last `Date` header read, and its time: the answers of a second carry the same one, read several times each. */
let lastDate: { readonly text: string; readonly ms: number | undefined } | undefined;

/** The `Date` header as epoch ms (floored to the second by the format), or undefined. */
export function dateMs(response: VenueResponse): number | undefined {
  const d = header(response, 'date');
  if (d === undefined) return undefined;
  if (lastDate?.text === d) return lastDate.ms;
  const t = Date.parse(d);
  lastDate = { text: d, ms: Number.isFinite(t) ? t : undefined };
  return lastDate.ms;
}
