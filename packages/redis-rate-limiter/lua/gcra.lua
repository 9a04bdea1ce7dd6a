-- Token buckets (the kit's gcra.ts): x is the theoretical arrival time tat of a bucket that refills, or the
-- amount used of a fixed quota (refill 0); hold the end of a penalty in force (NO_HOLD when none).
-- Times relative to now (gcra.ts): every function here depends on times only through their differences, so the
-- operations call them with now = 0 and a token bucket's x and a hold relative to now (stored.lua's rel): a
-- bucket that refills is stored relative to the time it was written, and its x is as precise as its own span.

local function fresh(d, now)
  if d.quota then return 0 end
  return now
end

local function borrowed_at(x, d, now)
  if d.quota then
    if x > 0 then return x end
    return 0
  end
  if x <= now then return 0 end
  return (x - now) / d.ms_per_token
end

-- the earliest time the bucket can pay cost (math.huge for a quota that cannot)

local function charge_at(x, d, cost, s)
  if d.quota then return x + cost end
  local span = cost * d.ms_per_token
  if span > d.tau then span = d.tau end
  if x < s then x = s end
  return add_up(x, span)
end

local function record_cost(x, d, cost, now)
  if d.quota then return math.min(x + cost, MAX_AMOUNT) end
  if x < now then x = now end
  return math.min(add_up(x, cost * d.ms_per_token), now + HORIZON_MS)
end

local function sync_borrowed(x, d, min_borrowed, now)
  if d.quota then return math.max(x, math.min(min_borrowed, MAX_AMOUNT)) end
  return math.max(x, math.min(add_up(now, min_borrowed * d.ms_per_token), now + HORIZON_MS))
end

local function clamp_hold(until_ms, now)
  return math.min(until_ms, now + HORIZON_MS)
end

local function penalize_until(x, d, until_ms, now)
  if d.quota then return math.max(x, d.capacity) end
  return math.max(x, add_up(clamp_hold(until_ms, now), d.tau))
end

-- a token bucket taking over b borrowed now, keeping a hold in force
local function from_borrowed(b, hold, to, now)
  local y
  if b <= 0 then
    y = fresh(to, now)
  elseif to.quota then
    y = math.min(b, MAX_AMOUNT)
  else
    y = math.min(add_up(now, b * to.ms_per_token), now + HORIZON_MS)
  end
  if hold > now then
    if to.quota then y = math.max(y, to.capacity) else y = math.max(y, add_up(hold, to.tau)) end
  end
  return y
end

-- a new definition keeps the amount borrowed and never lifts a hold
local function redefine(x, hold, from, to, now)
  return from_borrowed(borrowed_at(x, from, now), hold, to, now)
end

-- the first definition of a bucket that had only a hold and/or recorded debt
local function fold_pending(debt, hold, d, now)
  if d.quota then
    local y = 0
    if hold > NO_HOLD then y = d.capacity end
    return math.min(y + debt, MAX_AMOUNT)
  end
  local y = now
  if hold > NO_HOLD then
    local empty = add_up(hold, d.tau)
    if empty > y then y = empty end
  end
  if debt > 0 then y = math.min(add_up(y, debt * d.ms_per_token), now + HORIZON_MS) end
  return y
end