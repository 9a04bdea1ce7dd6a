-- The limiter's Lua library, first part: the clock, number text and definitions. The library is the parts
-- lua/scripts.json lists, joined in that order (src/scripts.ts): this one, the token-bucket arithmetic
-- (gcra.lua), admission classes (classes.lua), window limits (window.lua), the stored
-- values (stored.lua), one file per operation (admit.lua, cancel.lua, record.lua, sync.lua, penalize.lua,
-- inspect.lua, delete.lua) and entry.lua, which hands the operations to Redis. Loaded once per server as a
-- library of Redis 7 Functions (FUNCTION LOAD, then FCALL); a call runs only its own operation.
--
-- The arithmetic is the TypeScript core's (@core/rate-limit-kit: gcra.ts, classes.ts, window.ts; the
-- contract package's MODEL.md states it): the same expressions in the same order. A differential test
-- (test/differential.test.ts) runs random operation sequences through both and compares every decision and
-- every stored state. The stored values and every operation's arguments and replies are documented in one
-- place: src/protocol.ts.
--
-- Script time: the caller's injected clock, or milliseconds since EPOCH_S from the server's TIME (small
-- numbers keep doubles exact to well under a microsecond). A token bucket that refills is kept relative to the
-- time it was written (stored.lua), so its state is as exact as its own span, however small.

local EPOCH_S = 1767225600 -- 2026-01-01T00:00:00Z
local HORIZON_MS = 1e15
local MAX_AMOUNT = 1e300
-- the longest expiry a key gets (ms, the horizon): a longer one (a window of 1e17 ms, a jitter of 1e308) would
-- reach SET ... PX as text Redis refuses (src/protocol.ts MAX_TTL_MS)
local MAX_TTL_MS = 1e15
local ULP = 2.220446049250313e-16
-- (-1 / 0: at load time Redis 7.0 gives a library no globals but redis, so no math.huge at the top level)
local NO_HOLD = -1 / 0
-- slots per window of a window limit's slot ledger (the kit's WINDOW_SLOTS)
local WINDOW_SLOTS = 128

-- now in script time, the clock as the caller gets it back (TIME's two strings, or the injected value), and
-- the reply of an admission now: TIME in microseconds as one number, or the injected value as given. TIME's
-- seconds change once a second: their text is converted once (the library outlives its calls).
local seconds_text, seconds, seconds_ms = '', 0, 0
-- Now as a token bucket's `at` (at_text below): its value, and its text once made (nil until a call writes it).
-- The injected clock's own text reads back as now exactly. TIME's now, seconds_ms + micros / 1000, reads back
-- exactly from its decimal digits "<whole ms>.<3 digits>" (now_whole, now_frac): that decimal is k / 1000 for an
-- integer k, never within 2^(p-1) / 1000 of a midpoint between doubles spaced 2^p (p <= -3, below 2^50 ms), and
-- micros / 1000 is off the decimal by at most 2^-44, less than that once p >= -33 (from 2^19 ms; used from 2^20):
-- so the sum rounds to the double nearest the decimal, which tonumber gives. (Cheaper and shorter than %.17g.)
local now_value, now_text = nil, nil
local now_whole, now_frac = 0, 0
local EXACT_TEXT_FROM, EXACT_TEXT_BELOW = 2 ^ 20, 2 ^ 49

local function read_clock(arg)
  if arg ~= '' then
    local now = tonumber(arg)
    now_value, now_text = now, arg
    return now, arg, '', arg
  end
  local t = redis.call('TIME')
  local s, micros = t[1], tonumber(t[2])
  if s ~= seconds_text then
    seconds_text, seconds = s, tonumber(s)
    seconds_ms = (seconds - EPOCH_S) * 1000
  end
  local now = seconds_ms + micros / 1000
  local frac = micros % 1000
  now_value, now_text, now_whole, now_frac = now, nil, seconds_ms + (micros - frac) / 1000, frac
  return now, s, t[2], seconds * 1000000 + micros
end

-- Number text, both ways, remembered from call to call (the library outlives its calls): a slot ledger's numbers
-- repeat from one call to the next (its slots, amounts, sentinels), and parsing or formatting a double costs far
-- more than a table lookup. Only these scripts write stored numbers, with fmt, and %.17g round-trips, so a text
-- and its value always correspond both ways. The sentinels of a ledger's header (window.lua's NONE and NEVER,
-- -1e300 and 1e300) are written '-' and '+': a double of 300 digits is the costliest text of all. Past
-- MAX_TEXTS entries both tables are forgotten at once.
local MAX_TEXTS = 8192
-- (window.lua's NONE and NEVER)
local LEDGER_NONE, LEDGER_NEVER = -1e300, 1e300
local VALUE_OF = { ['-'] = LEDGER_NONE, ['+'] = LEDGER_NEVER, ['0'] = 0 }
local TEXT_OF = {}
local text_count = 0

local function forget_texts()
  VALUE_OF = { ['-'] = LEDGER_NONE, ['+'] = LEDGER_NEVER, ['0'] = 0 }
  TEXT_OF = {}
  text_count = 0
end

-- %.17g, whose digits glibc works out in multi-precision; an integer (slots, sums, most costs) prints the same
-- text with %d far more cheaply (below 1e15, where %.17g prints every digit and no exponent; not 0, which may be -0)
local function format_number(v)
  if v % 1 == 0 and v < 1e15 and v > -1e15 and v ~= 0 then return string.format('%d', v) end
  return string.format('%.17g', v)
end

-- the text of a token bucket's `at` (the time it was written, stored.lua): now's made once per call (see
-- read_clock), as every bucket a call writes stores it; another time's (a cancel's) with %.17g
local function at_text(at)
  if at ~= now_value then return format_number(at) end
  if now_text == nil then
    if now_whole >= EXACT_TEXT_FROM and now_whole < EXACT_TEXT_BELOW then
      now_text = string.format('%d.%03d', now_whole, now_frac)
    else
      now_text = format_number(at)
    end
  end
  return now_text
end

-- (a value is remembered when a stored text is read; a token bucket's x has its own texts, below)
local function fmt(v)
  local s = TEXT_OF[v]
  if s ~= nil then return s end
  return format_number(v)
end

local function remember(s, v)
  if v ~= nil and v ~= 0 and v == v then
    if text_count >= MAX_TEXTS then forget_texts() end
    VALUE_OF[s] = v
    TEXT_OF[v] = s
    text_count = text_count + 2
  end
end

-- the value of a stored number's text (fmt's inverse), remembered
local function value_of(s)
  local v = VALUE_OF[s]
  if v ~= nil then return v end
  v = tonumber(s)
  remember(s, v)
  return v
end

-- fmt, remembered: for a window limit's numbers, which the next call reads again
local function fmt_kept(v)
  local s = TEXT_OF[v]
  if s ~= nil then return s end
  s = format_number(v)
  remember(s, v)
  return s
end

-- A token bucket's x relative to the time it is written (stored.lua), both ways, remembered apart from the other
-- numbers: a bucket charged while full stores its cost's span, the same number call after call (and %.17g of a
-- small fraction costs more than the rest of a call), while a busy bucket's x is new on every call and must not
-- crowd out a ledger's numbers. Past MAX_X_TEXTS entries both tables are forgotten at once.
local MAX_X_TEXTS = 256
local X_TEXT, X_VALUE, x_count = {}, {}, 0

local function remember_x(s, v)
  if x_count >= MAX_X_TEXTS then X_TEXT, X_VALUE, x_count = {}, {}, 0 end
  X_TEXT[v], X_VALUE[s] = s, v
  x_count = x_count + 1
end

local function fmt_x(v)
  local s = X_TEXT[v]
  if s ~= nil then return s end
  s = format_number(v)
  -- (not 0, which may be -0, nor NaN)
  if v ~= 0 and v == v then remember_x(s, v) end
  return s
end

-- fmt_x's inverse: nil for a text that is not a number
local function x_of(s)
  local v = X_VALUE[s]
  if v ~= nil then return v end
  v = tonumber(s)
  if v ~= nil and v ~= 0 and v == v then remember_x(s, v) end
  return v
end

-- base + inc, nudged up when the float sum fell short of inc: a charge is never smaller than its cost
local function add_up(base, inc)
  local r = base + inc
  if r - base < inc then r = r + math.abs(r) * ULP end
  return r
end

-- a definition from its text: "capacity,refillPerSec" (a token bucket) or "perWindow/windowMs/jitterMs"
local function parse_definition(text)
  local d = { text = text }
  local per, win, jit = string.match(text, '^([^/]*)/([^/]*)/([^/]*)$')
  local capacity, refill
  if per ~= nil then
    per, win, jit = tonumber(per), tonumber(win), tonumber(jit)
    -- the slot ledger's geometry (window.lua): slots of window_ms / WINDOW_SLOTS ms, runs of M slots
    local g = win / WINDOW_SLOTS
    d.window = { per = per, window_ms = win, jitter = jit, span = win + jit, eps = 1e-9 * per, g = g, M = math.ceil((win + jit) / g) + 1 }
    capacity = per
    refill = (per * 1000) / win
  else
    local c, r = string.match(text, '^([^,]*),([^,]*)$')
    capacity = tonumber(c)
    refill = tonumber(r)
  end
  d.capacity = capacity
  d.refill = refill
  -- how a stored value under this very definition begins (stored.lua's fast path)
  d.prefix = text .. ','
  d.prefix_end = #text + 1
  if refill == 0 then
    d.quota = true
    d.ms_per_token = math.huge
    d.tau = math.huge
    d.eps = 1e-9 * capacity
  else
    d.quota = false
    d.ms_per_token = 1000 / refill
    d.tau = capacity * d.ms_per_token
    d.eps = 1e-9 * d.tau
  end
  return d
end

-- Texts that repeat from call to call (a limiter's settings, modes, classes, shares, costs, its definitions, its
-- lists of checks) are parsed once: the library outlives its calls (Redis Functions), and a parse never changes.
-- memoized(parse, max) remembers parse's value per text (never a nil one); past `max` texts it forgets them all
-- at once. Times are read with tonumber: they never repeat.
local function memoized(parse, max)
  local known, count = {}, 0
  return function(text)
    local v = known[text]
    if v ~= nil then return v end
    v = parse(text)
    if v == nil then return nil end
    if count >= max then known, count = {}, 0 end
    known[text] = v
    count = count + 1
    return v
  end
end

local MAX_NUMBERS, MAX_DEFINED = 1024, 1024
-- (tonumber read when called: while a library loads, Redis 7.0 gives it no globals but redis)
local number = memoized(function(text) return tonumber(text) end, MAX_NUMBERS)
-- a definition is never changed once made
local define = memoized(parse_definition, MAX_DEFINED)

-- The operations by name, each a function of a call's keys and arguments (one file each, after stored.lua).
local OPERATIONS = {}
