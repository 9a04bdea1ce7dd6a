-- One admission, booking or peek over one or more buckets of one hash slot, in one round trip
-- (RL-A1..RL-A5, RL-M1, RL-M4, RL-M5, RL-W1, RL-W3, RL-L4, RL-L5, RL-A7). Preceded by state.lua.
--
-- KEYS: the buckets (distinct: the caller merges repeated keys, RL-M2).
-- ARGV: now ('' = server TIME), TTL slack ms, mode (1 probe, 2 peek, 3 book), budget ms (book only),
--       token (book only), then per bucket: capacity, refillPerSec, cost (> 0).
-- Replies (see src/admit-protocol.ts):
--   admitted now: the clock alone (TIME in microseconds as one integer, or the injected now as given);
--   {0, sendAt, clockA, clockB, written1, previous1, ...}  booked for later (the pairs let a cancel return it);
--   {1, wait, clockA, clockB}                                 not admitted, nothing written (RL-A3, RL-W3);
--   {2, bucket (1-based), reason (1 quota, 2 horizon), left} the cost can never be paid, nothing written.

local MODE_PEEK = 2
local MODE_BOOK = 3

local now, clock_a, clock_b = read_clock(ARGV[1])
local admitted_now
if clock_b == '' then admitted_now = clock_a else admitted_now = tonumber(clock_a) * 1000000 + tonumber(clock_b) end
local slack = tonumber(ARGV[2])
local mode = tonumber(ARGV[3])
local n = #KEYS

local stored
if n == 1 then stored = { redis.call('GET', KEYS[1]) } else stored = redis.call('MGET', unpack(KEYS)) end

local defs, costs, xs, holds = {}, {}, {}, {}
local send_at = now
for i = 1, n do
  local arg = 5 + (i - 1) * 3
  local d = define(ARGV[arg + 1], ARGV[arg + 2])
  local cost = tonumber(ARGV[arg + 3])
  local x, hold = effective(stored[i], d, now)
  local s = send_time(x, d, cost, now)
  if not (s - now <= HORIZON_MS) then
    if d.quota then return { 2, i, 1, fmt(d.capacity - math.max(0, x)) } end
    return { 2, i, 2, '0' }
  end
  if s > send_at then send_at = s end
  defs[i], costs[i], xs[i], holds[i] = d, cost, x, hold
end

local wait = send_at - now
if wait > 0 and (mode ~= MODE_BOOK or wait > tonumber(ARGV[4])) then return { 1, fmt(wait), clock_a, clock_b } end
if mode == MODE_PEEK then return admitted_now end

-- a booking for later tags what it writes with its token and answers what it replaced
local token = ''
local out = nil
if wait > 0 then
  token = ';' .. ARGV[5]
  out = { 0, fmt(send_at), clock_a, clock_b }
end
for i = 1, n do
  local value = store(KEYS[i], defs[i], charge_at(xs[i], defs[i], costs[i], send_at), holds[i], now, slack, token)
  if out ~= nil then
    out[#out + 1] = value
    out[#out + 1] = stored[i] or ''
  end
end
if out ~= nil then return out end
return admitted_now
