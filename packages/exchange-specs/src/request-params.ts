import type { VenueRequest } from './venue-io.js';

/**
 * A request's parameters as one lookup: path parameters (from the endpoint's template), then the
 * query, then the body (an object, a JSON string or a form-encoded string). Dotted names reach
 * into the body (`action.orders`); `''` is the body itself.
 */
export interface RequestParams {
  get(name: string): unknown;
}

function parseBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  const t = body.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return body;
    }
  }
  return Object.fromEntries(new URLSearchParams(t));
}

/** A string holding a JSON object or array, parsed; any other value as is. */
function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const t = value.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return value;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return value;
  }
}

/**
 * Reads a dot-separated path (`a.b.0.c`) in a value; `''` is the value itself. A name applied to
 * an array reads it in every element (`data.sCode` gives the list of the elements' `sCode`). A
 * string holding a JSON object or array on the way is read as that JSON (`json.batchOrder` in a
 * form body whose field `json` is `{"batchOrder":[...]}`, as Kraken Futures' batch orders are sent).
 */
export function readPath(value: unknown, path: string): unknown {
  if (path === '') return value;
  let cur: unknown = value;
  for (const part of path.split('.')) {
    cur = parseJsonText(cur);
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur) && !/^\d+$/.test(part)) {
      cur = cur.map((el: unknown) => (el !== null && typeof el === 'object' ? (el as Record<string, unknown>)[part] : undefined));
    } else {
      cur = (cur as Record<string, unknown>)[part];
    }
  }
  return cur;
}

/** Builds the parameter lookup of a request (see {@link RequestParams}). */
export function requestParams(request: VenueRequest, pathParams: Readonly<Record<string, string>>): RequestParams {
  // the body is parsed when a name is not found before it (a request priced by its path and query never parses it)
  let body: { readonly value: unknown } | undefined;
  const bodyValue = (): unknown => (body ??= { value: parseBody(request.body) }).value;
  return {
    get(name: string): unknown {
      if (name === '') return bodyValue();
      const fromPath = pathParams[name];
      if (fromPath !== undefined) return fromPath;
      const q = request.query?.[name];
      if (q !== undefined) return q;
      return readPath(bodyValue(), name);
    },
  };
}

/**
 * The items of a list parameter: an array, or a string holding a JSON array, or a comma-separated
 * string. `undefined` when the value is absent or not a list.
 */
export function listItems(value: unknown): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') {
    const t = value.trim();
    if (t.startsWith('[')) {
      try {
        const parsed = JSON.parse(t) as unknown;
        return Array.isArray(parsed) ? parsed : undefined;
      } catch {
        return undefined;
      }
    }
    return t === '' ? [] : t.split(',');
  }
  return undefined;
}

/** Is the value given (not undefined, null or an empty string)? */
export function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}
