import { readFileSync } from 'node:fs';
import { defineScript, type Script } from './script-runner.js';

/**
 * The limiter's Lua scripts, read from the package's `lua/` folder (plain Lua files, readable and
 * lintable on their own). Each script is `state.lua` (the shared arithmetic) followed by its own file;
 * their arguments and replies are typed in `protocol.ts`, the one place the TypeScript side knows them.
 */
const LUA_DIR = new URL('../lua/', import.meta.url);

function lua(name: string): string {
  return readFileSync(new URL(`${name}.lua`, LUA_DIR), 'utf8');
}

const STATE = lua('state');

function withState(name: string): Script {
  return defineScript(name, `${STATE}\n${lua(name)}`);
}

/** One admission, booking or peek (see admit.lua). */
export const ADMIT = withState('admit');
/** Returns a booking (see cancel.lua). */
export const CANCEL = withState('cancel');
/** Debits cost sent without admission, exactly once (see record.lua). */
export const RECORD = withState('record');
/** Raises a bucket to what the venue reports (see sync.lua). */
export const SYNC = withState('sync');
/** Holds a bucket closed (see penalize.lua). */
export const PENALIZE = withState('penalize');
/** Reads a bucket and the clock (see inspect.lua). */
export const INSPECT = withState('inspect');
/** Forgets a bucket (see delete.lua). */
export const DELETE = defineScript('delete', lua('delete'));

/** Every script the limiter runs (for tests and for preloading with SCRIPT LOAD). */
export const REDIS_RATE_LIMITER_SCRIPTS: readonly Script[] = [ADMIT, CANCEL, RECORD, SYNC, PENALIZE, INSPECT, DELETE];
