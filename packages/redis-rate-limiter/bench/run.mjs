// `pnpm bench` for @core/redis-rate-limiter: admissions/s, latency, round trips and memory against a
// redis-server this script starts itself on a free loopback port (never 6379), side by side with
// rate-limiter-flexible's RateLimiterRedis and a bare one-key GCRA script, in the same run, and the targets
// (at 64 in flight: one token bucket >= 1.8x rate-limiter-flexible with server CPU per admission at or below
// the bare GCRA script's; three buckets >= 1.0x rate-limiter-flexible single) with the ratios measured.
//
// The two last contenders run on ioredis clients with enableAutoPipelining, which batch their writes as
// our ioredis adapter does.
//
// Options (env): BENCH_SECONDS (per measurement, default 1.5), BENCH_ROUNDS (default 2: the better
// of two runs is kept per cell), REDIS_SERVER_BIN.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { createRedisRateLimiter, fromIoRedis } from '../dist/index.js';
import { BARE_GCRA } from './bare-gcra.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 1.5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const KEYS = 1000;
const serverBin = process.env.REDIS_SERVER_BIN ?? 'redis-server';

// ---- the server -------------------------------------------------------------------------------

async function freePort() {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if (port === 6379) continue;
    const free = await new Promise((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

async function startServer() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'rrl-bench-'));
  const child = spawn(serverBin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: 'ignore',
  });
  child.once('error', (e) => {
    console.error(`could not start ${serverBin}: ${e.message} (install redis-server, see scripts/ensure-redis.sh)`);
    process.exit(1);
  });
  process.once('exit', () => child.kill('SIGKILL'));
  for (let i = 0; ; i++) {
    const up = await new Promise((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.on('connect', () => socket.write('PING\r\n'));
      socket.on('data', (d) => {
        socket.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (i > 200) throw new Error('redis-server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  const client = new Redis({ host: '127.0.0.1', port });
  client.on('error', () => {});
  return {
    port,
    admin: client,
    stop: () => {
      client.disconnect();
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---- measuring --------------------------------------------------------------------------------

async function commandStats(admin) {
  const stats = new Map();
  for (const line of (await admin.info('commandstats')).split('\n')) {
    const m = /^cmdstat_([a-z|_]+):calls=(\d+)/.exec(line.trim());
    if (m) stats.set(m[1], Number(m[2]));
  }
  return stats;
}

/** Seconds of CPU the server used so far (user + system). */
async function serverCpu(admin) {
  const info = await admin.info('cpu');
  return Number(info.match(/used_cpu_user:([\d.]+)/)[1]) + Number(info.match(/used_cpu_sys:([\d.]+)/)[1]);
}

const TOP_LEVEL = new Set(['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'multi']);

/** Runs `op(i)` with `inFlight` concurrent loops for SECONDS; returns throughput, latency, round trips. */
async function measure(admin, op, inFlight) {
  for (let i = 0; i < 2_000; i++) await op(i); // warm-up: scripts loaded, JIT warm
  const before = await commandStats(admin);
  const serverCpuBefore = await serverCpu(admin);
  const clientCpuBefore = process.cpuUsage();
  const latencies = [];
  let ops = 0;
  let refused = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async (_, lane) => {
      let i = lane;
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const admitted = await op(i);
        latencies.push(performance.now() - t0);
        if (!admitted) refused++;
        ops++;
        i += inFlight;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const serverCpuUs = ((await serverCpu(admin)) - serverCpuBefore) * 1e6;
  const after = await commandStats(admin);
  let roundTrips = 0;
  let inner = 0;
  for (const [cmd, calls] of after) {
    if (cmd === 'info') continue;
    const d = calls - (before.get(cmd) ?? 0);
    if (TOP_LEVEL.has(cmd)) roundTrips += d;
    else inner += d;
  }
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  return {
    perSec: ops / seconds,
    p50: pct(0.5),
    p99: pct(0.99),
    roundTrips: roundTrips / ops,
    inner: inner / ops,
    refused,
    clientUs: (clientCpu.user + clientCpu.system) / ops,
    serverUs: serverCpuUs / ops,
  };
}

// ---- the contenders ---------------------------------------------------------------------------

function client(port, enableAutoPipelining = false) {
  const c = new Redis({ host: '127.0.0.1', port, enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true, enableAutoPipelining });
  c.on('error', () => {});
  return c;
}

async function main() {
  const server = await startServer();
  const { admin } = server;
  const ours = client(server.port);
  const theirs = client(server.port);
  const bare = client(server.port);
  // the same contenders on clients that batch their writes too (ioredis' enableAutoPipelining), as
  // our ioredis adapter does by itself: the fair comparison of the work per admission
  const theirsPiped = client(server.port, true);
  const barePiped = client(server.port, true);
  await Promise.all([ours.connect(), theirs.connect(), bare.connect(), theirsPiped.connect(), barePiped.connect()]);

  // every contender admits every call (limits far above the load): this measures admission cost
  const big = { capacity: 1e9, refillPerSec: 1e9 };
  const limiter = createRedisRateLimiter({ redis: fromIoRedis(ours), prefix: 'bench:' });
  const credentials = Array.from({ length: KEYS }, (_, i) => `api-key-${i}-${'x'.repeat(40)}`);
  const one = (i) => limiter.checkRate({ venue: 'binance', credential: credentials[i % KEYS], axis: 'orders' }, big, 1).then((d) => d.kind === 'ok');
  const three = (i) => {
    const credential = credentials[i % KEYS];
    return limiter
      .checkRates([
        { key: { venue: 'binance', credential: null, axis: 'ip' }, limit: big, cost: 1 },
        { key: { venue: 'binance', credential, axis: 'orders' }, limit: big, cost: 1 },
        { key: { venue: 'binance', credential, axis: 'uid' }, limit: big, cost: 1 },
      ])
      .then((d) => d.kind === 'ok');
  };
  const rlf = new RateLimiterRedis({ storeClient: theirs, keyPrefix: 'rlf', points: 1e9, duration: 60 });
  const flexible = (i) =>
    rlf.consume(`k${i % KEYS}`, 1).then(
      () => true,
      () => false,
    );
  bare.defineCommand('gcra', { numberOfKeys: 1, lua: BARE_GCRA });
  const gcra = (i) => bare.gcra(`gcra:{k${i % KEYS}}`, '1000000000', '1000000000', '1').then((r) => r === 1);
  const rlfPiped = new RateLimiterRedis({ storeClient: theirsPiped, keyPrefix: 'rlfp', points: 1e9, duration: 60 });
  const flexiblePiped = (i) =>
    rlfPiped.consume(`k${i % KEYS}`, 1).then(
      () => true,
      () => false,
    );
  barePiped.defineCommand('gcra', { numberOfKeys: 1, lua: BARE_GCRA });
  const gcraPiped = (i) => barePiped.gcra(`gcrap:{k${i % KEYS}}`, '1000000000', '1000000000', '1').then((r) => r === 1);

  const contenders = [
    ['redis-rate-limiter checkRate (1 bucket)', one],
    ['redis-rate-limiter checkRates (3 buckets)', three],
    ['rate-limiter-flexible RateLimiterRedis.consume', flexible],
    ['bare one-key GCRA script (EVALSHA)', gcra],
    ['rate-limiter-flexible, autopipelined ioredis', flexiblePiped],
    ['bare GCRA script, autopipelined ioredis', gcraPiped],
  ];
  const results = new Map();
  console.log(
    `redis-rate-limiter bench: redis-server ${(await admin.info('server')).match(/redis_version:(\S+)/)?.[1]} on 127.0.0.1:${server.port}, ${KEYS} keys, ${SECONDS} s per cell, best of ${ROUNDS}, ioredis 5\n`,
  );
  console.log(
    'contender'.padEnd(50) +
      'in flight'.padStart(10) +
      'admissions/s'.padStart(14) +
      'p50 ms'.padStart(9) +
      'p99 ms'.padStart(9) +
      'round trips'.padStart(13) +
      'cmds in script'.padStart(16) +
      'client CPU us'.padStart(15) +
      'server CPU us'.padStart(15),
  );
  // two rounds in alternating order, the better of the two kept per cell: this machine is shared and
  // noisy, and the first cell of a round also pays for warming up
  for (const inFlight of [1, 64]) {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      for (const [name, op] of order) {
        const r = await measure(admin, op, inFlight);
        const prior = results.get(`${name}@${inFlight}`);
        if (prior === undefined || r.perSec > prior.perSec) results.set(`${name}@${inFlight}`, r);
      }
    }
    for (const [name] of contenders) {
      const r = results.get(`${name}@${inFlight}`);
      console.log(
        name.padEnd(50) +
          String(inFlight).padStart(10) +
          Math.round(r.perSec).toLocaleString('en-US').padStart(14) +
          r.p50.toFixed(3).padStart(9) +
          r.p99.toFixed(3).padStart(9) +
          r.roundTrips.toFixed(2).padStart(13) +
          r.inner.toFixed(2).padStart(16) +
          r.clientUs.toFixed(1).padStart(15) +
          r.serverUs.toFixed(1).padStart(15) +
          (r.refused > 0 ? `  (${r.refused} not admitted!)` : ''),
      );
    }
  }
  const ratio = (a, b, inFlight) => results.get(`${a}@${inFlight}`).perSec / results.get(`${b}@${inFlight}`).perSec;
  const [s, t, f, g, fp, gp] = contenders.map(([name]) => name);
  // the targets, as the issue states them (never lowered): one run of this bench, 64 in flight
  const verdict = (met) => (met ? 'met' : 'MISSED');
  const single = ratio(s, f, 64);
  const threeR = ratio(t, f, 64);
  const ourCpu = results.get(`${s}@64`).serverUs;
  const bareCpu = results.get(`${g}@64`).serverUs;
  console.log('\ntargets at 64 in flight (Redis, one run of this bench):');
  console.log(`  one token bucket >= 1.8x rate-limiter-flexible: ${single.toFixed(2)}x (${verdict(single >= 1.8)})`);
  console.log(
    `  server CPU per admission, one token bucket <= the bare GCRA script's: ${ourCpu.toFixed(1)} us / ${bareCpu.toFixed(1)} us = ${(ourCpu / bareCpu).toFixed(2)}x (${verdict(ourCpu <= bareCpu)})`,
  );
  console.log(`  three buckets >= 1.0x rate-limiter-flexible single: ${threeR.toFixed(2)}x (${verdict(threeR >= 1.0)})`);
  console.log('other ratios at 64 in flight:');
  console.log(`  single / bare GCRA script: ${ratio(s, g, 64).toFixed(2)}x`);
  console.log(
    `  against the contenders on autopipelined ioredis (every client batching its writes): single / rlf ${ratio(s, fp, 64).toFixed(2)}x; three / rlf ${ratio(t, fp, 64).toFixed(2)}x; single / bare GCRA ${ratio(s, gp, 64).toFixed(2)}x`,
  );
  console.log('ratios at 1 in flight:');
  console.log(
    `  single / rate-limiter-flexible: ${ratio(s, f, 1).toFixed(2)}x; three / rlf: ${ratio(t, f, 1).toFixed(2)}x; single / bare GCRA: ${ratio(s, g, 1).toFixed(2)}x`,
  );

  // memory per idle bucket: 10 000 buckets with realistic names, left idle (long TTL: half-spent quota)
  await limiter.resetAll();
  const idle = createRedisRateLimiter({ redis: fromIoRedis(ours), prefix: 'rl:' });
  const before = Number((await admin.info('memory')).match(/used_memory:(\d+)/)[1]);
  const N = 10_000;
  const hourly = { requests: 1000, periodMs: 3_600_000 };
  for (let i = 0; i < N; i += 100) {
    await Promise.all(
      Array.from({ length: 100 }, (_, j) =>
        idle.checkRate({ venue: 'binance', credential: `${'k'.repeat(56)}${String(i + j).padStart(8, '0')}`, axis: 'orders_1h' }, hourly, 500),
      ),
    );
  }
  const after = Number((await admin.info('memory')).match(/used_memory:(\d+)/)[1]);
  const sample = [];
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', 'rl:*', 'COUNT', 1000);
    cursor = next;
    sample.push(...keys);
  } while (cursor !== '0' && sample.length < 1000);
  const usages = await Promise.all(sample.slice(0, 1000).map((k) => admin.memory('USAGE', k)));
  const avg = usages.reduce((a, b) => a + Number(b), 0) / usages.length;
  console.log(`\nmemory per idle bucket (${N} buckets, key like ${sample[0]}):`);
  console.log(`  MEMORY USAGE: ${avg.toFixed(1)} bytes on average (target <= 150)`);
  console.log(`  used_memory growth / bucket (with the expiry index): ${((after - before) / N).toFixed(1)} bytes`);

  await idle.close();
  await limiter.close();
  ours.disconnect();
  theirs.disconnect();
  bare.disconnect();
  theirsPiped.disconnect();
  barePiped.disconnect();
  server.stop();
}

await main();
