import { LUA_STATE } from './lua-state.js';

/**
 * Returns a booking (RL-W5): each bucket whose stored value is still exactly what the booking wrote
 * (with the booking's token) gets back the state it replaced, stored without a token; a bucket that
 * anything wrote to after the booking keeps it (the slot is forfeited). Every write other than a
 * booking stores no token and every booking its own, so even a sync or penalty that left the numbers
 * unchanged forfeits (restoring would undo its floor or hold, RL-R2 and RL-R3), and so does a later
 * booking, returned or not.
 *
 * KEYS: the booked buckets. ARGV: now ('' = server TIME), TTL slack ms, pending TTL ms, then per key: written, previous
 * ('' = absent). Reply: the number of buckets restored.
 */
export const CANCEL_SCRIPT = `${LUA_STATE}
local now = clock(ARGV[1])
local restored = 0
for i = 1, #KEYS do
  local written = ARGV[3 + (i - 1) * 2 + 1]
  local previous = ARGV[3 + (i - 1) * 2 + 2]
  local current = redis.call('GET', KEYS[i])
  if current and current == written then
    restored = restored + 1
    local st = parse(previous)
    if st == nil then
      redis.call('DEL', KEYS[i])
    else
      store(KEYS[i], st, now)
    end
  end
end
return restored
`;
