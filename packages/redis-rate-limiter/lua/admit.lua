-- One admission, booking or peek over one or more buckets of one hash slot, in one round trip
-- (RL-A1..RL-A5, RL-M1, RL-M4, RL-M5, RL-W1, RL-W3, RL-L4, RL-L5, RL-A7). Preceded by state.lua.
--
-- KEYS: the buckets (distinct: the caller merges repeated keys, RL-M2).
-- ARGV: now ('' = server TIME), TTL slack ms, mode (1 probe, 2 peek, 3 book, 4 a peek at a booked send held at
--       the next argument, RL-V8), budget ms (book only; the held send's time with mode 4),
--       token (book only), class (0 critical, 1 normal, 2 bulk), the share of each bucket the class
--       leaves free (RL-Q1..RL-Q5, classes.ts), then per bucket: its definition as text
--       ("capacity,refillPerSec" or "perWindow/windowMs/jitterMs") and its cost (> 0); when the share
--       is empty, one share per bucket follows (RL-Q6: checks that name their own reserve); then, for a
--       booking that books again a send held at that time and not sent (RL-V8), its time.
-- Replies (see src/admit-protocol.ts):
--   admitted now: the clock alone (TIME in microseconds as one integer, or the injected now as given);
--   {0, sendAt, clockA, clockB, written1, previous1, ...}  booked for later (the pairs let a cancel return it);
--   {1, wait, clockA, clockB}                                 not admitted, nothing written (RL-A3, RL-W3);
--   {2, bucket (1-based), reason (1 quota, 2 horizon, 3 window), left} the cost can never be paid, nothing written.

local MODE_PEEK = 2
local MODE_BOOK = 3
local MODE_HELD = 4

local now, clock_a, clock_b = read_clock(ARGV[1])
local admitted_now
if clock_b == '' then admitted_now = clock_a else admitted_now = tonumber(clock_a) * 1000000 + tonumber(clock_b) end
local slack = tonumber(ARGV[2])
local mode = tonumber(ARGV[3])
local cls = tonumber(ARGV[6])
local n = #KEYS
local free = tonumber(ARGV[7])
local frees = {}
for i = 1, n do
  if free ~= nil then frees[i] = free else frees[i] = tonumber(ARGV[7 + 2 * n + i]) end
end

-- after the buckets and their shares: the time of a held send this booking replaces (RL-V8), if any
local held_at = nil
if mode == MODE_BOOK then held_at = tonumber(ARGV[8 + 2 * n + (free == nil and n or 0)]) elseif mode == MODE_HELD then held_at = tonumber(ARGV[4]) end

local stored
if n == 1 then stored = { redis.call('GET', KEYS[1]) } else stored = redis.call('MGET', unpack(KEYS)) end

-- a peek at a booked send held at ARGV[4] (RL-V8): only the window limits are asked, nothing written
if mode == MODE_HELD then
  local wait = 0
  for i = 1, n do
    local arg = 7 + (i - 1) * 2
    local d = define(ARGV[arg + 1])
    if d.window then
      local e = effective_window(stored[i], d, now)
      local w = window_held_wait(e, d.window, tonumber(ARGV[arg + 2]), held_at, now)
      if w > wait then wait = w end
    end
  end
  if wait > 0 then return { 1, fmt(wait), clock_a, clock_b } end
  return admitted_now
end

-- the plan (plan.ts): token buckets first (any time from their own send time fits), then every window
-- limit moves the common time to its earliest fitting time from there, until none moves it
local defs, costs, xs, holds, windows, classes, answers = {}, {}, {}, {}, {}, {}, {}
local send_at = now
local any_window = false
for i = 1, n do
  local arg = 7 + (i - 1) * 2
  local d = define(ARGV[arg + 1])
  local cost = tonumber(ARGV[arg + 2])
  defs[i], costs[i] = d, cost
  if d.window then
    windows[i], holds[i], answers[i] = effective_window(stored[i], d, now)
    -- a booking again of a send held at held_at (RL-V8): its entry there is given up as this call books
    if held_at ~= nil then windows[i] = without_held(windows[i], cost, held_at) end
    any_window = true
  else
    local x, hold, cs = effective(stored[i], d, now)
    cs = settle_classes(cs, x, now)
    xs[i], holds[i], classes[i] = x, hold, cs
    local line = line_of(d, frees[i], cost)
    local s = class_send_time(x, cs, d, line, cls, cost, now)
    if not (s - now <= HORIZON_MS) then
      if d.quota then return { 2, i, 1, fmt(line - math.max(0, x)) } end
      return { 2, i, 2, '0' }
    end
    if s > send_at then send_at = s end
  end
end
local moved = any_window
while moved do
  moved = false
  for i = 1, n do
    local d = defs[i]
    if d.window then
      local line = window_line_of(d.window.per, frees[i], costs[i])
      local s = window_send_time(windows[i], d.window, costs[i], send_at, line, bulk_keep(d.window.per, line, cls))
      if not (s - now <= HORIZON_MS) then
        if costs[i] > line + d.window.eps then return { 2, i, 3, '0' } end
        return { 2, i, 2, '0' }
      end
      if s > send_at then
        send_at = s
        moved = true
      end
    end
  end
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
  local d = defs[i]
  local value
  if d.window then
    value = store(KEYS[i], d, 0, holds[i], now, slack, token, window_charge(windows[i], d.window, costs[i], send_at, now, cls), nil, answers[i])
  elseif d.quota then
    value = store(KEYS[i], d, charge_at(xs[i], d, costs[i], send_at), holds[i], now, slack, token)
  else
    local x2, cs = class_charge(xs[i], classes[i], d, cls, costs[i], send_at, now)
    value = store(KEYS[i], d, x2, holds[i], now, slack, token, nil, cs)
  end
  if out ~= nil then
    out[#out + 1] = value
    out[#out + 1] = stored[i] or ''
  end
end
if out ~= nil then return out end
return admitted_now
