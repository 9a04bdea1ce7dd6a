import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { specFromCcxt, type CcxtFile } from './ccxt-spec.js';

// Works from src/ (tests) and dist/ (the package ships src/generated too).
const dir = new URL('../src/generated/', import.meta.url);

let ids: readonly string[] | undefined;

/** The ccxt exchange ids of the specs committed in `src/generated/` (`<id>.json`). */
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

/** The generated file of a ccxt exchange as stored (unvalidated), or `undefined` if absent. */
export function loadGeneratedFile(ccxtId: string): CcxtFile | undefined {
  if (!generatedSpecIds().includes(ccxtId)) return undefined;
  return JSON.parse(readFileSync(new URL(`${ccxtId}.json`, dir), 'utf8')) as CcxtFile;
}

/**
 * Reads one generated file and turns it into spec data (unvalidated) under the spec id `specId`
 * (default: the ccxt id), or `undefined` if absent.
 */
export function loadGeneratedSpec(ccxtId: string, specId?: string): unknown {
  const raw = loadGeneratedFile(ccxtId);
  return raw === undefined ? undefined : specFromCcxt(raw, specId);
}
