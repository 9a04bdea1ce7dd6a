import { LUA_STATE } from './lua-state.js';

/**
 * Reads one bucket and the clock, for `borrowed` and `snapshot` (RL-I1, RL-I3); writes nothing.
 *
 * KEYS: the bucket. ARGV: now ('' = server TIME), TTL slack ms, pending TTL ms (unused). Reply: `{stored value or '', now}`.
 */
export const INSPECT_SCRIPT = `${LUA_STATE}
local now = clock(ARGV[1])
local raw = redis.call('GET', KEYS[1])
if not raw then raw = '' end
return {raw, fmt(now)}
`;
