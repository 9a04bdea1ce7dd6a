import type { VenueRequest } from '@core/exchange-specs';

/** The parts of a fetch call a venue request is priced from. */
export interface FetchCall {
  readonly url: URL;
  readonly method: string;
  /** The body as text when it is text (a string or URLSearchParams), for pricing and resending. */
  readonly bodyText: string | undefined;
}

/**
 * Reads a fetch call's URL, method and text body. A `Request` input gives its URL and method; a
 * body that is not text (a stream, a Blob, FormData) is rejected: the request could not be priced
 * from it, and it could not be sent again on a retry.
 *
 * @throws TypeError for a relative URL or a body that is not text.
 */
export async function readFetchCall(input: string | URL | Request, init: RequestInit | undefined): Promise<FetchCall> {
  const isRequest = typeof Request !== 'undefined' && input instanceof Request;
  const url = new URL(isRequest ? input.url : String(input));
  const method = (init?.method ?? (isRequest ? input.method : 'GET')).toUpperCase();
  let bodyText: string | undefined;
  const body = init?.body;
  if (body !== undefined && body !== null) {
    if (typeof body === 'string') bodyText = body;
    else if (body instanceof URLSearchParams) bodyText = body.toString();
    else throw new TypeError('paced fetch: the body must be a string or URLSearchParams (it is priced from, and resent on retries)');
  } else if (isRequest && input.body !== null) {
    bodyText = await input.clone().text();
  }
  return { url, method, bodyText };
}

/** The venue request of a fetch call: method, path, query (last value wins), body text. */
export function toVenueRequest(call: FetchCall): VenueRequest {
  const query: Record<string, string> = {};
  for (const [k, v] of call.url.searchParams) query[k] = v;
  return {
    method: call.method,
    path: call.url.pathname,
    // the host picks between endpoints a spec lists on several hosts with one path (ccxt-derived specs)
    host: call.url.host,
    query,
    ...(call.bodyText === undefined || call.bodyText === '' ? {} : { body: call.bodyText }),
  };
}
