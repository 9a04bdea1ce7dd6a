import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { specFromCcxt } from './ccxt-spec.js';

// Works from src/ (tests) and dist/ (the package ships src/generated too).
const dir = new URL('../src/generated/', import.meta.url);

let ids: readonly string[] | undefined;

/** The ids of the ccxt-derived specs committed in `src/generated/` (`<id>.json`). */
export function generatedSpecIds(): readonly string[] {
  if (ids === undefined) {
    ids = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .map((f) => f.slice(0, -'.json'.length))
          .sort()
      : [];
  }
  return ids;
}

/** Reads one generated file and turns it into spec data (unvalidated), or `undefined` if absent. */
export function loadGeneratedSpec(id: string): unknown {
  if (!generatedSpecIds().includes(id)) return undefined;
  const raw = JSON.parse(readFileSync(new URL(`${id}.json`, dir), 'utf8')) as unknown;
  return specFromCcxt(raw);
}
