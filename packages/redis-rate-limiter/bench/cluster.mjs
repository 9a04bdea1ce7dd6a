// The cluster cell of `pnpm bench` for @core/redis-rate-limiter: the aggregate admissions per second of three
// Cluster masters against one standalone master, with the same workload and the same client concurrency, and the
// issue's target as written beside the ratio. It starts its own servers on free loopback ports (never 6379): one
// plain `redis-server` and three cluster-enabled ones joined with `redis-cli --cluster create` (the package's
// test servers, `@core/redis-rate-limiter/testing`), and stops them.
//
// Workload: checkRate over 30 venues chosen so that their hash tags fall 10 on each master, 1000 credentials,
// every call admitted (limits far above the load): token buckets, and one cell on window limits. The load comes
// from client processes (cluster-client.mjs, forked), 64 calls in flight between them. Each master's CPU per
// call is read from the server (INFO commandstats: the script's own time; INFO cpu: the whole process, network
// included), with its share of a core over the cell and the clients' CPU, since on a small machine the cores
// run out before the masters do: the capacity the masters' CPU per call allows (1e6 / CPU us per call, summed
// over masters) is printed beside the measured ratio.
//
// The clients are node-redis by default on both sides: ioredis' Cluster client spends two to three times as much
// CPU per call as node-redis' (measured with the limiter on this machine: about 25 us, 19 us with
// enableAutoPipelining, against 11 us), which on a small machine leaves less for the masters.
//
// Options (env): BENCH_SECONDS (per cell, default 1.5), BENCH_ROUNDS (default 2: the better of two runs is kept
// per cell), BENCH_CLUSTER_CLIENTS (client process counts to measure, default "1,2"), BENCH_CLUSTER_LIBRARY
// (`node-redis`, the default, or `ioredis`).
import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { Redis } from 'ioredis';
import { bucketKeyName, hashTagOf } from '../dist/index.js';
import { startRedisCluster, startRedisServer } from '../dist/testing/index.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 1.5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CLIENT_COUNTS = (process.env.BENCH_CLUSTER_CLIENTS ?? '1,2').split(',').map(Number);
const LIBRARY = process.env.BENCH_CLUSTER_LIBRARY ?? 'node-redis';
const IN_FLIGHT = 64;
const VENUES = 30;
const MASTERS = 3;
const TARGET = 2.5;
const TARGET_TEXT = 'a bench cell on 3 masters with 30 venues (or hash tags) spread over the slots gives at least 2.5x the aggregate throughput of one master';
const SCRIPT_COMMANDS = new Set(['fcall', 'evalsha', 'eval']);
const WORKLOADS = [
  ['token', 'token buckets'],
  ['window', 'window limits (1e9 per 60 s)'],
];

function admin(port) {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true });
  client.on('error', () => {});
  return client;
}

/** 30 venue names whose hash tags (as the limiter builds its keys) fall 10 on each master. */
async function spreadVenues(admins) {
  const ranges = (await admins[0].cluster('SLOTS')).map(([start, end, [, port]]) => ({ start, end, port }));
  const portOfSlot = (slot) => ranges.find((r) => slot >= r.start && slot <= r.end).port;
  const perMaster = new Map(ranges.map((r) => [r.port, []]));
  for (let n = 0; [...perMaster.values()].some((list) => list.length < VENUES / MASTERS); n++) {
    const venue = `venue-${n}`;
    const tag = hashTagOf(bucketKeyName('bench:', 'venue', venue, null, 'orders'));
    const list = perMaster.get(portOfSlot(Number(await admins[0].cluster('KEYSLOT', `{${tag}}`))));
    if (list.length < VENUES / MASTERS) list.push(venue);
  }
  // interleaved, so consecutive calls go to different masters
  return Array.from({ length: VENUES }, (_, i) => [...perMaster.values()][i % MASTERS][Math.floor(i / MASTERS)]);
}

/** A server's script calls, the script's time (us) and its process CPU (s) so far. */
async function serverCounters(client) {
  let calls = 0;
  let scriptUs = 0;
  for (const line of (await client.info('commandstats')).split('\n')) {
    const m = /^cmdstat_([a-z_|]+):calls=(\d+),usec=(\d+)/.exec(line.trim());
    if (m && SCRIPT_COMMANDS.has(m[1])) {
      calls += Number(m[2]);
      scriptUs += Number(m[3]);
    }
  }
  const cpu = await client.info('cpu');
  const cpuSeconds = Number(cpu.match(/used_cpu_user:([\d.]+)/)[1]) + Number(cpu.match(/used_cpu_sys:([\d.]+)/)[1]);
  return { calls, scriptUs, cpuSeconds };
}

function nextMessage(child) {
  return new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`a bench client exited (code ${code}) before answering`)));
  });
}

/** One cell: `processes` clients, IN_FLIGHT calls in flight between them, for SECONDS. */
async function runCell(target, admins, workload, processes, venues) {
  const children = Array.from({ length: processes }, () => fork(new URL('./cluster-client.mjs', import.meta.url), { stdio: 'inherit' }));
  const ready = children.map(nextMessage);
  children.forEach((child, index) => {
    child.send({ ...target.setup, workload, venues, index, lanes: IN_FLIGHT / processes, seconds: SECONDS, prefix: target.name });
  });
  await Promise.all(ready);
  const before = await Promise.all(admins.map(serverCounters));
  const done = children.map(nextMessage);
  const started = performance.now();
  for (const child of children) child.send('go');
  const results = await Promise.all(done);
  const wall = (performance.now() - started) / 1000;
  const after = await Promise.all(admins.map(serverCounters));
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : undefined)));
  const ops = results.reduce((sum, r) => sum + r.ops, 0);
  const failures = {};
  for (const r of results) for (const [why, n] of Object.entries(r.failures)) failures[why] = (failures[why] ?? 0) + n;
  return {
    perSec: results.reduce((sum, r) => sum + r.ops / r.seconds, 0),
    clientCores: results.reduce((sum, r) => sum + r.cpuSeconds, 0) / wall,
    clientUs: (results.reduce((sum, r) => sum + r.cpuSeconds, 0) * 1e6) / ops,
    failures,
    servers: admins.map((_, i) => {
      const calls = after[i].calls - before[i].calls;
      const cpu = after[i].cpuSeconds - before[i].cpuSeconds;
      return { calls, perSec: calls / wall, scriptUs: (after[i].scriptUs - before[i].scriptUs) / calls, cpuUs: (cpu * 1e6) / calls, share: cpu / wall };
    }),
  };
}

const fmt = (n, digits = 1) => n.toFixed(digits);
const rate = (n) => Math.round(n).toLocaleString('en-US');

function printCell(name, r) {
  const failed = Object.entries(r.failures);
  console.log(
    name.padEnd(44) +
      rate(r.perSec).padStart(14) +
      fmt(r.clientCores, 2).padStart(14) +
      fmt(r.clientUs).padStart(16) +
      (failed.length > 0 ? `  (not admitted: ${failed.map(([why, n]) => `${why} ${n}`).join(', ')}!)` : ''),
  );
  r.servers.forEach((s, i) => {
    console.log(
      `    ${r.servers.length === 1 ? 'the master' : `master ${i + 1}`}: ${rate(s.perSec)} calls/s, script ${fmt(s.scriptUs)} us/call (INFO commandstats), ` +
        `process ${fmt(s.cpuUs)} us/call (INFO cpu), ${fmt(s.share * 100, 0)} % of a core`,
    );
  });
}

/** What the masters could admit with a core each: 1e6 / process CPU us per call, summed over masters. */
const capacity = (r) => r.servers.reduce((sum, s) => sum + (s.calls > 0 ? 1e6 / s.cpuUs : 0), 0);

async function main() {
  const standalone = await startRedisServer();
  const cluster = await startRedisCluster();
  const single = [admin(standalone.port)];
  const masters = cluster.nodes.map((node) => admin(node.port));
  try {
    await Promise.all([...single, ...masters].map((c) => c.connect()));
    const venues = await spreadVenues(masters);
    const version = (await single[0].info('server')).match(/redis_version:(\S+)/)?.[1];
    const ports = cluster.nodes.map((n) => n.port);
    const targets = [
      { name: 'one master', admins: single, setup: { target: 'standalone', ports: [standalone.port], library: LIBRARY } },
      { name: '3 masters', admins: masters, setup: { target: 'cluster', ports, library: LIBRARY } },
    ];
    const load = loadavg().map((l) => fmt(l, 2));
    console.log(
      `\nredis-rate-limiter cluster bench: redis-server ${version}, one master on 127.0.0.1:${standalone.port} against a cluster ` +
        `of ${MASTERS} masters (${ports.join(', ')}), ${VENUES} venues (${VENUES / MASTERS} per master: ${venues.slice(0, MASTERS).join(', ')}, ...), ` +
        `${IN_FLIGHT} in flight, ${LIBRARY} clients, ${SECONDS} s per cell, best of ${ROUNDS}; ${cpus().length} cores, load average ${load.join(' ')}\n`,
    );
    console.log(`${'cell'.padEnd(44)}${'admissions/s'.padStart(14)}${'client cores'.padStart(14)}${'client us/call'.padStart(16)}`);
    const summary = [];
    for (const [workload, label] of WORKLOADS) {
      for (const processes of CLIENT_COUNTS) {
        const best = new Map();
        for (let round = 0; round < ROUNDS; round++) {
          for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
            const r = await runCell(target, target.admins, workload, processes, venues);
            if (!best.has(target.name) || r.perSec > best.get(target.name).perSec) best.set(target.name, r);
          }
        }
        for (const target of targets) printCell(`${label}, ${target.name}, ${processes} client process${processes === 1 ? '' : 'es'}`, best.get(target.name));
        summary.push({ label, processes, one: best.get('one master'), three: best.get('3 masters') });
      }
    }
    console.log(`\ntarget (Redis Cluster), ${IN_FLIGHT} in flight, the same workload and clients on both sides:`);
    for (const { label, processes, one, three } of summary) {
      const ratio = three.perSec / one.perSec;
      const clients = `${processes} client process${processes === 1 ? '' : 'es'}`;
      console.log(`  ${label}, ${clients}: ${TARGET_TEXT}: ${fmt(ratio, 2)}x [>= ${TARGET}x] ${ratio >= TARGET ? 'ok' : 'MISSED'}`);
      const mastersShare = three.servers.reduce((sum, s) => sum + s.share, 0);
      console.log(
        `    capacity from server CPU (1e6 / process CPU us per call, summed over masters): ${rate(capacity(three))}/s ` +
          `against ${rate(capacity(one))}/s = ${fmt(capacity(three) / capacity(one), 2)}x; cores in use: clients ` +
          `${fmt(three.clientCores, 2)} + masters ${fmt(mastersShare, 2)} (one master: ${fmt(one.clientCores, 2)} + ${fmt(one.servers[0].share, 2)})`,
      );
    }
    const endLoad = loadavg().map((l) => fmt(l, 2));
    console.log(`load average at the end: ${endLoad.join(' ')}`);
  } finally {
    for (const c of [...single, ...masters]) c.disconnect();
    await cluster.stop();
    await standalone.stop();
  }
}

await main();
