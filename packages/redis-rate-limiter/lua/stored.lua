-- Stored values (their format: src/protocol.ts): parsing, the state under a call's definition (kept,
-- converted or folded from a pending bucket), and writing with the key's expiry.

local function number_or_no_hold(text)
  if text == nil or text == '' then return NO_HOLD end
  return tonumber(text)
end

-- A window limit's values as parsed, by their text (the library outlives its calls): what one call writes, the
-- next call on that bucket reads back, from any process, and parsing a ledger's text costs more than the rest of
-- a call. store() keeps each window value it writes, in place of the one its key held (the heap the garbage
-- collector walks stays one ledger per bucket); parse() finds a value by text, or parses and keeps it. A parsed
-- state is shared, so it is never changed: window.lua's functions give new ledgers and never change the one they
-- are given. Past MAX_PARSED values they are all forgotten at once.
local MAX_PARSED = 512
local PARSED, WRITTEN, parsed_count = {}, {}, 0

local function keep_parsed(raw, st, key)
  if parsed_count >= MAX_PARSED then PARSED, WRITTEN, parsed_count = {}, {}, 0 end
  local before = key and WRITTEN[key]
  if before then
    PARSED[before] = nil
  else
    parsed_count = parsed_count + 1
  end
  if key then WRITTEN[key] = raw end
  PARSED[raw] = st
end

local parse_text

-- a stored value: { pending = true, debt, hold }, or { text, x, at (a token bucket's), hold, entries (a window
-- limit's ledger) }; nil when absent. A token bucket that refills stores `x@at`: its x relative to at, the time it
-- was written (its class state too); a quota's at is 0 (x: its amount); a window limit's x is its expiry, on the clock.
local function parse(raw)
  if not raw then return nil end
  local kept = PARSED[raw]
  if kept ~= nil then return kept end
  local st = parse_text(raw)
  if st ~= nil and st.entries ~= nil and #st.entries > 0 then keep_parsed(raw, st) end
  return st
end

function parse_text(raw)
  local token = string.find(raw, ';', 1, true)
  if token then raw = string.sub(raw, 1, token - 1) end
  local bar = string.find(raw, '|', 1, true)
  local head = raw
  if bar then head = string.sub(raw, 1, bar - 1) end
  local classes = nil
  local hash = string.find(head, '#', 1, true)
  if hash then
    classes = {}
    for v in string.gmatch(string.sub(head, hash + 1) .. ':', '([^:]*):') do
      if v == '' then classes[#classes + 1] = NO_HOLD else classes[#classes + 1] = tonumber(v) end
    end
    head = string.sub(head, 1, hash - 1)
  end
  if string.sub(head, 1, 2) == 'p,' then
    local debt, hold = string.match(head, '^p,([^,]*),([^,]*)$')
    if debt == nil then return nil end
    return { pending = true, debt = tonumber(debt), hold = number_or_no_hold(hold) }
  end
  local text, x, h, at
  if string.find(head, '/', 1, true) then
    text, x, h = string.match(head, '^([^,]*),([^,]*),?([^,]*)$')
  else
    -- (the definition "capacity,refillPerSec" captured whole: its text is the call's, not a new string)
    text, x, h = string.match(head, '^([^,]*,[^,]*),([^,]*),?([^,]*)$')
    at = 0
    local sep = text and string.find(x, '@', 1, true)
    if sep then
      at = tonumber(string.sub(x, sep + 1))
      x = string.sub(x, 1, sep - 1)
    end
  end
  if text == nil then return nil end
  local st = { pending = false, text = text, x = tonumber(x), at = at, hold = number_or_no_hold(h), classes = classes }
  if bar then
    -- a window limit's slot ledger (window.lua): its numbers, comma-separated
    local e = {}
    local n = 0
    local values = VALUE_OF
    local ledger_text = string.sub(raw, bar + 1)
    local last = ''
    for v in string.gmatch(ledger_text, '[^,]+') do
      n = n + 1
      local value = values[v]
      if value == nil then value = value_of(v) end
      e[n] = value
      last = v
    end
    -- (its pairs' text, ledger-text.lua: after the header's numbers)
    if n == LEDGER_HEADER then
      text_none(e)
    elseif n > LEDGER_HEADER then
      local pos = 0
      for _ = 1, LEDGER_HEADER do pos = string.find(ledger_text, ',', pos + 1, true) end
      e.tb, e.tf, e.tc, e.tt, e.tl = ledger_text, pos + 1, #ledger_text, '', #last
    end
    st.entries = e
  elseif string.find(text, '/', 1, true) then
    st.entries = {}
  end
  return st
end

-- a defined bucket's state relative to now under its own definition d: a quota's amount, a window limit's expiry
-- less now, else x + (at − now)
local function rel(st, d, now)
  if d.quota then return st.x end
  if d.window then return st.x - now end
  return st.x + (st.at - now)
end

-- a class state's times (L, Lc, Ln, aEnd: its first four) moved by dt ms; the same state when dt is 0
local function shift_classes(cs, dt)
  if cs == nil or dt == 0 then return cs end
  return { cs[1] + dt, cs[2] + dt, cs[3] + dt, cs[4] + dt, cs[5], cs[6] }
end

-- a defined bucket that is full and not held behaves exactly like an absent one (it may expire any time)
local function live(st, now)
  if st == nil or st.pending then return st end
  if rel(st, define(st.text), now) <= 0 and not (st.hold > now) then return nil end
  return st
end

-- a token bucket's x relative to now, its hold (on the clock) and class state (relative to now) under definition d
-- now: converted (keeping the hold), or folded from pending
local function effective(raw, d, now)
  -- most often the value is "<this definition>,x" (a quota) or "<this definition>,x@at" alone (no hold, no class
  -- state, no token): read without parsing the whole (anything else leaves a rest tonumber refuses, and is
  -- parsed whole)
  if raw and string.find(raw, d.prefix, 1, true) == 1 then
    if d.quota then
      local x = tonumber(string.sub(raw, d.prefix_end + 1))
      if x ~= nil then return x, NO_HOLD end
    else
      local sep = string.find(raw, '@', d.prefix_end + 1, true)
      if sep then
        local x, at = x_of(string.sub(raw, d.prefix_end + 1, sep - 1)), tonumber(string.sub(raw, sep + 1))
        if x ~= nil and at ~= nil then return x + (at - now), NO_HOLD, nil end
      end
    end
  end
  local st = parse(raw)
  if st == nil then return fresh(d, 0), NO_HOLD end
  if st.pending then return fold_pending(st.debt, st.hold - now, d, 0), st.hold end
  if st.text == d.text then
    if d.quota then return st.x, st.hold end
    return st.x + (st.at - now), st.hold, shift_classes(st.classes, st.at - now)
  end
  local from = define(st.text)
  if from.window then return from_borrowed(window_borrowed(st.entries, from.window, now), st.hold - now, d, 0), st.hold end
  return redefine(rel(st, from, now), st.hold - now, from, d, 0), st.hold
end

-- a window limit's ledger and hold under window definition d now: kept, converted, or folded from pending
local function effective_window(raw, d, now)
  -- (most often the value the last call wrote: kept, see parse)
  local st = raw and PARSED[raw] or parse(raw)
  if st == nil then return {}, NO_HOLD end
  if st.pending then return window_fold_pending(st.debt, st.hold, d.window, now), st.hold end
  if st.entries then
    -- an idle bucket is absent; slots carry over to a definition of the same slot width, and the amount
    -- borrowed otherwise (RL-L5): a slot of one width means nothing under another
    -- (a value under the call's own definition: expiry and hold alone tell whether it is live)
    if st.text == d.text then
      local full
      if d.quota then full = st.x <= 0 else full = st.x <= now end
      if full and not (st.hold > now) then return {}, NO_HOLD end
      return st.entries, st.hold
    end
    if live(st, now) == nil then return {}, NO_HOLD end
    local from = define(st.text)
    if from.window.g == d.window.g then return st.entries, st.hold end
    return window_from_borrowed(window_borrowed(st.entries, from.window, now), st.hold, d.window, now), st.hold
  end
  local from = define(st.text)
  return window_from_borrowed(borrowed_at(rel(st, from, now), from, 0), st.hold, d.window, now), st.hold
end

-- a slot ledger's text in three parts to join: its header's numbers, their sentinels short (base.lua), then its
-- pairs' text (ledger-text.lua: its base and tail; made whole, and kept on it, when it carries none). The texts
-- go to one scratch table, reused from call to call (a fresh one grows its array again at every power of two);
-- only the entries written are joined.
local LEDGER_PARTS = {}

local function fmt_ledger(e)
  local parts = LEDGER_PARTS
  if e.tb == nil then
    local n = #e - LEDGER_HEADER
    for i = 1, n do parts[i] = fmt_kept(e[LEDGER_HEADER + i]) end
    local pairs_text = table.concat(parts, ',', 1, n)
    e.tb, e.tf, e.tc, e.tt, e.tl = pairs_text, 1, #pairs_text, '', #(parts[n] or '')
  end
  for i = 1, LEDGER_HEADER do
    local v = e[i]
    if v == LEDGER_NONE then
      parts[i] = '-'
    elseif v == LEDGER_NEVER then
      parts[i] = '+'
    else
      parts[i] = fmt_kept(v)
    end
  end
  return table.concat(parts, ',', 1, LEDGER_HEADER), string.sub(e.tb, e.tf, e.tc), e.tt
end

local function fmt_class(v)
  if v == NO_HOLD then return '' end
  return fmt(v)
end

-- writes a defined bucket (or deletes one that is full and not held); returns the stored string. A token bucket
-- that refills: x and classes (its class state, or nil) relative to at, the time they were written (now when nil:
-- a cancel restores a value as it was written). For a window limit x is ignored: its ledger is written with its
-- expiry (on the clock). A quota: x is the amount used.
local function store(key, d, x, hold, now, slack, token, entries, classes, at)
  if d.window then x, at = window_expiry(entries, d.window), 0 elseif at == nil then at = now end
  -- (x relative to now, as rel() reads it back)
  local x_now = x
  if not d.quota then x_now = x + (at - now) end
  if x_now <= 0 and not (hold > now) and token == '' then
    redis.call('DEL', key)
    return ''
  end
  local value
  if d.window then
    -- (one concatenation: every `..` of one expression makes one string)
    local h = ''
    if hold > now then h = ',' .. fmt(hold) end
    if #entries == 0 then
      value = d.text .. ',' .. fmt_kept(x) .. h .. token
    else
      local head, base, tail = fmt_ledger(entries)
      if base ~= '' or tail ~= '' then head = head .. ',' end
      local before = d.text .. ',' .. fmt_kept(x) .. h .. '|' .. head
      value = before .. base .. tail .. token
      -- (the ledger's text is now part of the value written)
      entries.tb, entries.tf, entries.tc, entries.tt = value, #before + 1, #before + #base + #tail, ''
      -- (what parse() would give for this value, kept for the next call: the ledger is the caller's last use of it)
      local kept_hold = NO_HOLD
      if hold > now then kept_hold = hold end
      keep_parsed(value, { pending = false, text = d.text, x = x, hold = kept_hold, classes = nil, entries = entries }, key)
    end
  else
    if d.quota then
      value = d.text .. ',' .. fmt(x)
    else
      value = d.text .. ',' .. fmt_x(x) .. '@' .. at_text(at)
    end
    if hold > now then value = value .. ',' .. fmt(hold) end
    if classes ~= nil and not d.quota then
      local c = {}
      for i = 1, 6 do c[i] = fmt_class(classes[i]) end
      value = value .. '#' .. table.concat(c, ':')
    end
    value = value .. token
  end
  if d.quota then
    redis.call('SET', key, value)
  else
    local ttl = x_now
    if hold - now > ttl then ttl = hold - now end
    if ttl < 0 then ttl = 0 end
    redis.call('SET', key, value, 'PX', math.min(math.ceil(ttl + slack), MAX_TTL_MS))
  end
  return value
end

-- writes a pending bucket: kept while its debt matters and at least hold_ttl after its hold ends
local function store_pending(key, debt, hold, now, debt_ttl, hold_ttl)
  local ttl = 0
  if debt > 0 then ttl = debt_ttl end
  if hold > NO_HOLD and hold - now + hold_ttl > ttl then ttl = hold - now + hold_ttl end
  if ttl <= 0 then
    redis.call('DEL', key)
    return ''
  end
  local h = ''
  if hold > NO_HOLD then h = fmt(hold) end
  local value = 'p,' .. fmt(debt) .. ',' .. h
  redis.call('SET', key, value, 'PX', math.min(math.ceil(ttl), MAX_TTL_MS))
  return value
end