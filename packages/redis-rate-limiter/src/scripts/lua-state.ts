/**
 * The Lua shared by every script: the clock, number formatting, and one bucket's stored state.
 *
 * Stored value of a defined bucket: `capacity,refillPerSec,x[,hold]` where `x` is the theoretical
 * arrival time `tat` (ms, script time) when refill > 0 and the amount used when refill = 0 (a fixed
 * quota, RL-L4), and `hold` the end of a penalty in force (absent when none). The definition is
 * stored as the client wrote the numbers (JavaScript's shortest round-trip form). A bucket that was
 * never defined but has a penalty or recorded debt is stored as `p,debt,hold` (RL-R1, RL-R3) and
 * folded in at its first definition. A value written by a booking for later ends with `;` and the
 * booking's random token (RL-W5: every other write stores none, so a cancel that finds exactly the
 * booking's value knows nothing wrote since). Absent = full. Short values stay embedded strings (<= 44 bytes).
 *
 * Every script's ARGV but the admit script's starts with: now ('' = server TIME), TTL slack ms, pending
 * TTL ms (the admit script, the hot path, has them written in; it only uses `view` from here).
 *
 * Script time: milliseconds since {@link SCRIPT_EPOCH_MS} when the server's TIME is the clock (small
 * numbers keep doubles exact to well under a microsecond), or the injected clock's value as given.
 */
export const SCRIPT_EPOCH_MS = 1_767_225_600_000; // 2026-01-01T00:00:00Z

export const LUA_STATE = `
local EPOCH_S = ${SCRIPT_EPOCH_MS / 1000}
local slack = tonumber(ARGV[2])
local pendingTtl = tonumber(ARGV[3])
local function clock(arg)
  if arg ~= '' then return tonumber(arg) end
  local t = redis.call('TIME')
  return (tonumber(t[1]) - EPOCH_S) * 1000 + tonumber(t[2]) / 1000
end

local function fmt(v)
  if v == 0 then return '0' end
  return string.format('%.17g', v)
end

-- base + inc, rounded up where the float sum fell short: a charge is never smaller than its cost
-- (absolute times are large numbers; their last bit is worth a few nanoseconds)
local function addUp(base, inc)
  local r = base + inc
  if r - base < inc then r = r + math.abs(r) * 2.220446049250313e-16 end
  return r
end

local function parse(raw)
  if not raw then return nil end
  -- a booking's token (';...') identifies the write, not the state
  local token = string.find(raw, ';', 1, true)
  if token then raw = string.sub(raw, 1, token - 1) end
  local def, a, b, c, d = string.match(raw, '^(([^,]*),([^,]*)),([^,]*),?([^,]*)$')
  if a == nil then return nil end
  if a == 'p' then return { pending = true, debt = tonumber(b), hold = tonumber(c) } end
  return { cap = tonumber(a), rate = tonumber(b), x = tonumber(c), hold = tonumber(d) or 0, def = def }
end

local function borrowedOf(st, now)
  if st.pending then return st.debt end
  if st.rate > 0 then return math.max(0, st.x - now) * st.rate / 1000 end
  return st.x
end

-- the state under definition (cap, rate), converting a live bucket's borrowed amount (RL-L5) and
-- folding in a pending debt or hold
local function view(raw, capStr, rateStr, now)
  local cap = tonumber(capStr)
  local rate = tonumber(rateStr)
  local old = parse(raw)
  local st = { cap = cap, rate = rate, hold = 0, x = 0, def = capStr .. ',' .. rateStr }
  if old == nil then
    if rate > 0 then st.x = now end
    return st
  end
  st.hold = old.hold
  if old.pending then
    -- as the in-process limiter folds them: the hold first (empty at its end), then the debt on top
    if rate > 0 then
      st.x = now
      if old.hold ~= 0 then st.x = math.max(st.x, addUp(old.hold, cap * 1000 / rate)) end
      st.x = addUp(st.x, old.debt * 1000 / rate)
    else
      if old.hold ~= 0 then st.x = cap end
      st.x = st.x + old.debt
    end
    return st
  end
  if old.cap == cap and old.rate == rate then
    st.x = old.x
    return st
  end
  local b = borrowedOf(old, now)
  if rate > 0 then
    st.x = addUp(now, b * 1000 / rate)
    if st.hold > now then st.x = math.max(st.x, addUp(st.hold, cap * 1000 / rate)) end
  else
    st.x = b
    if st.hold > now then st.x = math.max(st.x, cap) end
  end
  return st
end

-- writes a state (or deletes a bucket that is full and free again); returns the stored string
local function store(key, st, now)
  local value, ttl
  if st.pending then
    ttl = math.max(st.hold - now, 0)
    if st.debt > 0 then ttl = math.max(ttl, pendingTtl) end
    if ttl <= 0 then redis.call('DEL', key) return '' end
    value = 'p,' .. fmt(st.debt) .. ',' .. fmt(st.hold)
  else
    local hold = st.hold
    if hold <= now then hold = 0 end
    value = st.def .. ',' .. fmt(st.x)
    if hold ~= 0 then value = value .. ',' .. fmt(hold) end
    if st.rate > 0 then
      ttl = math.max(st.x, hold) - now
      if ttl <= 0 then redis.call('DEL', key) return '' end
    else
      if st.x <= 0 and hold == 0 then redis.call('DEL', key) return '' end
      redis.call('SET', key, value)
      return value
    end
  end
  redis.call('SET', key, value, 'PX', math.ceil(ttl + slack))
  return value
end
`;
