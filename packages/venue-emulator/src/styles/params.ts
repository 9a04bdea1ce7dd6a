import type { VenueRequest } from '@core/exchange-specs';

/** The body's fields: a JSON object, or a form (`a=1&b=2`); `{}` otherwise. */
export function bodyFields(request: VenueRequest): Record<string, unknown> {
  const b = request.body;
  if (typeof b === 'object' && b !== null && !Array.isArray(b)) return b as Record<string, unknown>;
  if (typeof b === 'string' && b !== '') {
    const t = b.trim();
    if (t.startsWith('{')) {
      try {
        const parsed = JSON.parse(t) as unknown;
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
      } catch {
        return {};
      }
      return {};
    }
    return Object.fromEntries(new URLSearchParams(t));
  }
  return {};
}

/** A request parameter by name: the query's, else the body's (JSON or form), as text. */
export function param(request: VenueRequest, name: string): string | undefined {
  const q = request.query?.[name];
  if (q !== undefined) return q;
  const v = bodyFields(request)[name];
  return v === undefined || v === null ? undefined : String(v);
}
