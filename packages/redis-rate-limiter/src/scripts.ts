import { readFileSync } from 'node:fs';
import { defineScript, type Script } from './script-runner.js';

/**
 * The limiter's Lua scripts, read from the package's `lua/` folder (plain Lua files, readable and
 * lintable on their own). Each script is joined from the parts `lua/scripts.json` lists (`state.lua`, the
 * shared arithmetic, then its own file); their arguments and replies are typed in `protocol.ts`, the one place the TypeScript side knows them.
 */
const LUA_DIR = new URL('../lua/', import.meta.url);

/** How each script is joined from the files of `lua/` (lua/scripts.json, which the Lua linter reads too). */
const PARTS = JSON.parse(readFileSync(new URL('scripts.json', LUA_DIR), 'utf8')) as Readonly<Record<string, readonly string[]>>;

function lua(name: string): string {
  return readFileSync(new URL(`${name}.lua`, LUA_DIR), 'utf8');
}

function joined(name: string): Script {
  const parts = PARTS[name];
  if (parts === undefined) throw new Error(`lua/scripts.json names no script ${name}`);
  return defineScript(name, parts.map(lua).join('\n'));
}

/** One admission, booking or peek (see admit.lua). */
export const ADMIT = joined('admit');
/** Returns a booking (see cancel.lua). */
export const CANCEL = joined('cancel');
/** Debits cost sent without admission, exactly once (see record.lua). */
export const RECORD = joined('record');
/** Raises a bucket to what the venue reports (see sync.lua). */
export const SYNC = joined('sync');
/** Holds a bucket closed (see penalize.lua). */
export const PENALIZE = joined('penalize');
/** Reads a bucket and the clock (see inspect.lua). */
export const INSPECT = joined('inspect');
/** Forgets a bucket (see delete.lua). */
export const DELETE = joined('delete');

/** Every script the limiter runs (for tests and for preloading with SCRIPT LOAD). */
export const REDIS_RATE_LIMITER_SCRIPTS: readonly Script[] = [ADMIT, CANCEL, RECORD, SYNC, PENALIZE, INSPECT, DELETE];
