import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { defineScript, type Script } from './script-runner.js';

/**
 * The limiter's Lua library, read from the package's `lua/` folder (plain Lua files, readable and lintable
 * on their own) and joined from the parts `lua/scripts.json` lists. Loaded once per server (per master on
 * Cluster) as a library of Redis 7 Functions, each operation a function called with FCALL; on a server
 * without Functions, or through a {@link RedisLike} without `fcall`, each operation runs as a script
 * (EVALSHA). Arguments and replies are typed in `protocol.ts`, the one place the TypeScript side knows them.
 */
const LUA_DIR = new URL('../lua/', import.meta.url);

/** How the library is joined from the files of `lua/` (lua/scripts.json, which the Lua linter reads too). */
const PARTS = JSON.parse(readFileSync(new URL('scripts.json', LUA_DIR), 'utf8')) as Readonly<Record<string, readonly string[]>>;

function lua(name: string): string {
  return readFileSync(new URL(`${name}.lua`, LUA_DIR), 'utf8');
}

const parts = PARTS['library'];
if (parts === undefined) throw new Error('lua/scripts.json names no library');
const BODY = parts.map(lua).join('\n');

/** The operations of the library (one file of `lua/` each). */
export type OperationName = 'admit' | 'cancel' | 'record' | 'sync' | 'penalize' | 'inspect' | 'delete';

/** One operation: the Redis function that runs it (FCALL), and the script that runs it where Functions are missing. */
export interface Operation {
  readonly name: OperationName;
  /** The function's name in the library: `<library>_<operation>`. */
  readonly fn: string;
  /** The same operation as a script (EVALSHA), for servers and clients without Functions. */
  readonly script: Script;
}

/**
 * The library as Redis 7 Functions: its name carries a hash of its code (`rrl_<12 hex digits>`), and so do
 * its functions' names, so two versions of this package sharing one server never replace each other's.
 */
export interface Library {
  readonly name: string;
  /** The code for FUNCTION LOAD (`#!lua name=<name>` first). */
  readonly code: string;
}

const LIBRARY_NAME = `rrl_${createHash('sha1').update(BODY, 'utf8').digest('hex').slice(0, 12)}`;

/** The limiter's library (FUNCTION LOAD REPLACE once per server; see {@link Library}). */
export const REDIS_RATE_LIMITER_LIBRARY: Library = Object.freeze({
  name: LIBRARY_NAME,
  code: `#!lua name=${LIBRARY_NAME}\nlocal LIBRARY = '${LIBRARY_NAME}'\n${BODY}`,
});

function operation(name: OperationName): Operation {
  return Object.freeze({ name, fn: `${LIBRARY_NAME}_${name}`, script: defineScript(name, `local OPERATION = '${name}'\n${BODY}`) });
}

/** One admission, booking or peek (see admit.lua). */
export const ADMIT = operation('admit');
/** Returns a booking (see cancel.lua). */
export const CANCEL = operation('cancel');
/** Debits cost sent without admission, exactly once (see record.lua). */
export const RECORD = operation('record');
/** Raises a bucket to what the venue reports (see sync.lua). */
export const SYNC = operation('sync');
/** Holds a bucket closed (see penalize.lua). */
export const PENALIZE = operation('penalize');
/** Reads a bucket and the clock (see inspect.lua). */
export const INSPECT = operation('inspect');
/** Forgets a bucket (see delete.lua). */
export const DELETE = operation('delete');

/** Every operation of the library. */
export const OPERATIONS: readonly Operation[] = [ADMIT, CANCEL, RECORD, SYNC, PENALIZE, INSPECT, DELETE];

/** Every operation as a script, for servers without Functions (and for preloading with SCRIPT LOAD there). */
export const REDIS_RATE_LIMITER_SCRIPTS: readonly Script[] = OPERATIONS.map((op) => op.script);
