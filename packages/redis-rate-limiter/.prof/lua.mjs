import { Redis } from 'ioredis';
import { REDIS_RATE_LIMITER_SCRIPTS } from '../dist/index.js';
const c = new Redis({ host: '127.0.0.1', port: 24555 });
const admit = REDIS_RATE_LIMITER_SCRIPTS[0];
const bare = `
local t = redis.call('TIME')
local now = (tonumber(t[1]) - 1767225600) * 1000 + tonumber(t[2]) / 1000
local emission = 1000 / tonumber(ARGV[2])
local tau = tonumber(ARGV[1]) * emission
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local newTat = tat + tonumber(ARGV[3]) * emission
if newTat - now > tau then return 0 end
redis.call('SET', KEYS[1], newTat, 'PX', math.max(1, math.ceil(newTat - now)))
return 1`;
await c.config('RESETSTAT');
const N = 20000;
for (let i = 0; i < N; i += 100) await Promise.all(Array.from({ length: 100 }, (_, j) => c.eval(admit.source, 1, `a:{v}:${(i + j) % 1000}:x`, '', '1000', '3600000', '0', '0', '1000000000', '1000000000', '1')));
console.log((await c.info('commandstats')).split('\n').filter((l) => /eval|get|set|time/.test(l)).join('\n'));
await c.config('RESETSTAT');
for (let i = 0; i < N; i += 100) await Promise.all(Array.from({ length: 100 }, (_, j) => c.eval(bare, 1, `b:{v}:${(i + j) % 1000}:x`, '1000000000', '1000000000', '1')));
console.log((await c.info('commandstats')).split('\n').filter((l) => /eval|get|set|time/.test(l)).join('\n'));
c.disconnect();
