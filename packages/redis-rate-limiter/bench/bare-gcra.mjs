// The bare one-key GCRA script the benches weigh the limiter's token bucket against (the perf probe's too): TIME,
// GET, SET with an expiry, nothing else. KEYS[1] the bucket; ARGV: capacity, refill per second, cost.
export const BARE_GCRA = `
local t = redis.call('TIME')
local now = (tonumber(t[1]) - 1767225600) * 1000 + tonumber(t[2]) / 1000
local emission = 1000 / tonumber(ARGV[2])
local tau = tonumber(ARGV[1]) * emission
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local newTat = tat + tonumber(ARGV[3]) * emission
if newTat - now > tau then return 0 end
redis.call('SET', KEYS[1], newTat, 'PX', math.max(1, math.ceil(newTat - now)))
return 1
`;
