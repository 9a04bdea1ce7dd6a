import type { VenueResponse } from './venue-io.js';

const INDEX = /^\d+$/;

/**
 * Whether the body's text (`VenueResponse.bodyHolds`) shows that `path` reads no text or number in it: a field name of
 * the path (not a list index) is missing from the text, and the text holds no escape that could spell it otherwise.
 */
export function holdsNothingAt(response: VenueResponse, path: string): boolean {
  if (response.bodyHolds === undefined || path === '') return false;
  // (called on the response: a method of a class serves as well as a function of its own)
  for (const name of namesOf(path)) if (!response.bodyHolds(name)) return !response.bodyHolds('\\');
  return false;
}

/** The field names of a path (its parts but list indexes), by path: the spec's few paths, split once. */
const pathNames = new Map<string, readonly string[]>();

function namesOf(path: string): readonly string[] {
  let names = pathNames.get(path);
  if (names === undefined) pathNames.set(path, (names = path.split('.').filter((part) => !INDEX.test(part))));
  return names;
}
