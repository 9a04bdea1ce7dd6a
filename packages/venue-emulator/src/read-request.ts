import type { IncomingMessage } from 'node:http';
import type { VenueRequest } from '@core/exchange-specs';

/** The largest request body the emulator reads (venues' own limits are of this order). */
export const MAX_BODY_BYTES = 1_000_000;

/**
 * Reads a node request into a {@link VenueRequest}: method, path, query (last value wins) and the
 * body (parsed JSON when it looks like JSON, the raw text otherwise, absent when empty).
 *
 * @throws RangeError when the body exceeds {@link MAX_BODY_BYTES}.
 */
export async function readRequest(req: IncomingMessage): Promise<VenueRequest> {
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = v;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY_BYTES) throw new RangeError(`request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(b);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const request: VenueRequest = { method: (req.method ?? 'GET').toUpperCase(), path: url.pathname, query };
  if (text === '') return request;
  const t = text.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return { ...request, body: JSON.parse(t) as unknown };
    } catch {
      return { ...request, body: text };
    }
  }
  return { ...request, body: text };
}
