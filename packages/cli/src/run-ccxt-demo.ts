import { mkdir, writeFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { getVenueSpec, venueEvidence } from '@core/exchange-specs';
import type { RateLimiter } from '@core/rate-limit-contract';
import { instrumentRateLimiter, pacedFetchMetrics } from '@core/rate-limit-metrics';
import type { EmulatorStats } from '@core/venue-emulator';
import { connectRedis, DEMO_PREFIX, type RedisConnection } from './connect-redis.js';
import { startEmulatorProcess, type EmulatorProcess } from './emulator-process.js';
import { startMetricsEndpoint, type MetricsEndpoint } from './metrics-endpoint.js';
import { createProgressLine } from './progress-line.js';
import { progressText } from './progress-text.js';
import { CCXT_METHODS, CCXT_WORKERS_PER_METHOD, ccxtVenueName, loadCcxt, runCcxtWorkers } from './run-ccxt-workers.js';
import type { DemoOptions, DemoReport } from './run-demo.js';
import { emptyCounts, START_UP_MS, type RunWorkersResult } from './run-workers.js';
import { spawnWorkers } from './spawn-workers.js';
import { busiestPerBucket, classWaitSummary, classWaitTable, limitLabel, startUpLine, summaryTable } from './summary-table.js';
import { renderUsageChart } from './usage-chart.js';
import { UsageError } from './usage-error.js';
import { documentedLimitOf } from './documented-bucket.js';
import { exlimitsCommand } from './invocation.js';
import { COUNTS_LEGEND, tableLegend } from './summary-legend.js';

/** The counters of several emulators summed, for the progress line. */
function summed(stats: readonly (EmulatorStats | undefined)[]): Pick<EmulatorStats, 'requests' | 'admitted' | 'violations' | 'refusedWhileBanned' | 'bans'> {
  const t = { requests: 0, admitted: 0, violations: 0, refusedWhileBanned: 0, bans: 0 };
  for (const s of stats) {
    if (s === undefined) continue;
    t.requests += s.requests;
    t.admitted += s.admitted;
    t.violations += s.violations;
    t.refusedWhileBanned += s.refusedWhileBanned;
    t.bans += s.bans;
  }
  return t;
}

/**
 * `exlimits demo --client ccxt`: the demo's workers call ccxt's unified methods (fetchOrderBook,
 * fetchTicker, fetchBalance, createOrder, cancelOrder, fetchOpenOrders) on ccxt exchanges paced by
 * `@core/ccxt-pacing`, one per credential, against an emulated venue per API family the ccxt class
 * calls (each in a process of its own), in process or in child processes sharing Redis. The summary
 * shows every family's limits; ccxt's exceptions (a `-1021` included) fail the run.
 *
 * @throws UsageError for a venue the ccxt demo does not run, `--ws`, or ccxt missing.
 */
export async function runCcxtDemo(options: DemoOptions): Promise<DemoReport> {
  if (options.ws === true) throw new UsageError('--ws drives the venue with paced-websocket, not ccxt: leave out --client ccxt or --ws');
  const name = ccxtVenueName(options.venue);
  const { pacing } = await loadCcxt();
  const setup = pacing.CCXT_VENUES[name];
  if (setup === undefined) throw new UsageError(`--client ccxt: no ccxt setup named ${name}`);
  const specIds = Object.keys(setup.families);
  const credentials = Array.from({ length: options.credentials }, (_, i) => `demo-ccxt-${name}-key-${i + 1}`);
  const workers = options.workers ?? credentials.length * CCXT_METHODS.length * CCXT_WORKERS_PER_METHOD;
  const processes = options.redisUrl === undefined ? 1 : (options.processes ?? 1);
  const durationMs = options.seconds * 1000;
  const out = options.out;
  const classes = options.classes !== false;

  let redis: RedisConnection | undefined;
  let limiter: RateLimiter;
  if (options.redisUrl !== undefined) {
    redis = await connectRedis(options.redisUrl, DEMO_PREFIX);
    limiter = redis.limiter;
    for (const id of specIds) {
      const reset = await limiter.resetVenue(id);
      if (reset.kind === 'error') {
        await redis.close();
        throw new Error(`cannot clear the demo's old buckets in Redis at ${options.redisUrl}: ${reset.error.message}`);
      }
    }
  } else {
    limiter = createDefaultRateLimiter();
  }
  let metrics: MetricsEndpoint | undefined;
  if (options.metricsPort !== undefined) {
    metrics = await startMetricsEndpoint(options.metricsPort);
    limiter = instrumentRateLimiter(limiter, { meterProvider: metrics.meterProvider, documentedLimit: documentedLimitOf });
  }
  const onAttempt = metrics === undefined ? undefined : pacedFetchMetrics({ meterProvider: metrics.meterProvider });

  // one venue process per API family ccxt calls (Binance: /api, /sapi, /fapi, /dapi), as in production
  const emulators: EmulatorProcess[] = [];
  for (const id of specIds) emulators.push(await startEmulatorProcess(id));
  const baseBySpec = Object.fromEntries(specIds.map((id, i) => [id, emulators[i]?.url ?? '']));
  const mode = `${options.redisUrl === undefined ? 'in process' : processes > 1 ? `${processes} processes sharing Redis` : 'in process on Redis'}${classes ? '' : ', without classes'}, through ccxt`;
  out.write(
    `ccxt ${setup.ccxtId} (${specIds.join(', ')}): ${workers} workers, ${credentials.length} credentials, ${options.seconds} s, ${mode}; unified methods: ${CCXT_METHODS.join(', ')}\n`,
  );
  if (redis !== undefined) out.write(`  watch the buckets live: ${exlimitsCommand()} inspect --redis ${options.redisUrl} --prefix ${DEMO_PREFIX}\n`);

  const live = emptyCounts();
  const progress = createProgressLine(out);
  let started = Date.now();
  const tick = setInterval(() => {
    progress.update(progressText(name, (Date.now() - started) / 1000, options.seconds, summed(emulators.map((e) => e.latest()))));
  }, 200);
  let result: RunWorkersResult & { calls?: number };
  try {
    const common = { durationMs, margin: options.margin, classes };
    const signal = options.signal === undefined ? {} : { signal: options.signal };
    if (redis !== undefined && processes > 1) {
      result = await spawnWorkers(
        {
          processes,
          workers,
          job: {
            venue: name,
            client: 'ccxt',
            baseUrl: '',
            baseBySpec,
            redisUrl: options.redisUrl ?? '',
            prefix: DEMO_PREFIX,
            credentials,
            ...common,
            deferredProcesses: processes,
          },
          onAllReady: () => {
            started = Date.now();
            progress.done();
            out.write(`  ${processes} worker processes running\n`);
          },
          ...signal,
        },
        live,
      );
    } else {
      result = await runCcxtWorkers(
        {
          venue: name,
          baseBySpec,
          limiter,
          credentials,
          workerIds: Array.from({ length: workers }, (_, i) => i),
          ...common,
          ...signal,
          onStart: () => {
            started = Date.now();
          },
          ...(onAttempt === undefined ? {} : { onAttempt }),
        },
        live,
      );
    }
  } finally {
    clearInterval(tick);
    progress.done();
  }
  const families: { spec: string; stats: EmulatorStats }[] = [];
  for (const [i, e] of emulators.entries()) families.push({ spec: specIds[i] ?? '', stats: await e.stats() });
  await Promise.all(emulators.map((e) => e.close()));
  if (redis !== undefined) await redis.close();
  else await limiter.close();
  await metrics?.close();

  const elapsed = ((Date.now() - started) / 1000).toFixed(1);
  out.write(`\nccxt ${setup.ccxtId}: ${elapsed} s, ${mode}\n`);
  out.write(
    `  ccxt calls completed ${result.calls ?? 'n/a'}   attempts sent ${result.counts.sent}   retries ${result.counts.retries}   not sent (wait over budget) ${result.counts.timeouts}   store errors ${result.counts.storeErrors}\n${COUNTS_LEGEND}\n`,
  );
  let main = families[0];
  for (const f of families) {
    if (f.stats.requests === 0) continue;
    if (main === undefined || f.stats.admitted > main.stats.admitted) main = f;
    const evidence = venueEvidence(getVenueSpec(f.spec));
    out.write(
      `\n${f.spec} (limits: ${evidence}): requests the venue received ${f.stats.requests}   admitted ${f.stats.admitted}   refused ${f.stats.violations + f.stats.refusedWhileBanned}   bans ${f.stats.bans}   bad requests ${f.stats.badRequests}   timestamps rejected (-1021) ${f.stats.rejected}\n\n`,
    );
    out.write(`${summaryTable(f.stats, evidence)}\n`);
  }
  out.write(`${tableLegend('limit')}\n`);
  const waits = classWaitSummary(result.waits ?? {});
  const startUpWaits = classWaitSummary(result.startUpWaits ?? {}, true);
  if (waits.length > 0) out.write(`\n${classWaitTable(waits)}\n  wait: from a request's admission call to its send time, per class\n`);
  const startUp = startUpLine(startUpWaits, START_UP_MS);
  if (startUp !== undefined) out.write(`${startUp}\n`);
  if (main === undefined) throw new Error('ccxt demo: no venue family');

  await mkdir(options.outDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const chartPath = resolvePath(options.outDir, `ccxt-${name}-${stamp}.svg`);
  const limit = limitLabel(venueEvidence(getVenueSpec(main.spec)));
  const title = `ccxt ${setup.ccxtId}, ${main.spec}: usage per window against the ${limit}s (${elapsed} s, ${mode}, ${main.stats.violations} violations)`;
  await writeFile(chartPath, renderUsageChart(title, busiestPerBucket(main.stats), limit, main.stats.nowMs));
  out.write(`  chart (${main.spec}): ${chartPath}\n`);
  const bad = families.reduce((n, f) => n + f.stats.badRequests + f.stats.rejected, 0);
  const failure = result.failure ?? (bad > 0 ? `the venue found ${bad} bad or stale request(s) (-1021 among them)` : undefined);
  const base = { venue: main.spec, seconds: Number(elapsed), mode, counts: result.counts, stats: main.stats, chartPath, waits, startUpWaits, families };
  return failure === undefined ? base : { ...base, failure };
}
