import { mkdir, writeFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import type { RateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { getVenueSpec, listWebSocketVenues, venueEvidence, type VenueSpec } from '@core/exchange-specs';
import type { EmulatorStats } from '@core/venue-emulator';
import { startEmulatorProcess } from './emulator-process.js';
import { instrumentRateLimiter, pacedFetchMetrics } from '@core/rate-limit-metrics';
import { connectRedis, DEMO_PREFIX, type RedisConnection } from './connect-redis.js';
import { startMetricsEndpoint, type MetricsEndpoint } from './metrics-endpoint.js';
import { createProgressLine } from './progress-line.js';
import { progressText } from './progress-text.js';
import { emptyCounts, runWorkers, START_UP_MS, type RunWorkersResult, type WorkerCounts } from './run-workers.js';
import { spawnWorkers } from './spawn-workers.js';
import { busiestPerBucket, classWaitSummary, classWaitTable, limitLabel, startUpLine, summaryTable, type ClassWaitSummary } from './summary-table.js';
import { renderUsageChart } from './usage-chart.js';
import { runCcxtDemo } from './run-ccxt-demo.js';
import { UsageError } from './usage-error.js';
import { documentedLimitOf } from './documented-bucket.js';
import { exlimitsCommand } from './invocation.js';
import { COUNTS_LEGEND, PACING_NOTE, failedOrdersLine, tableLegend } from './summary-legend.js';
import { laneSlots, lanesFor } from './workloads.js';
import { emptyWsCounts, runWsWorkers, wsWorkerCount, type WsCounts } from './run-ws-workers.js';
import { restLanesForWs, WS_DROP_MS, wsChartBuckets, wsSummaryTable } from './ws-demo.js';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  readonly venue: string;
  readonly seconds: number;
  readonly credentials: number;
  /** Default: per credential, each lane's `workersPerCredential` (2 unless the mix says otherwise). */
  readonly workers?: number | undefined;
  readonly redisUrl?: string | undefined;
  /** With `redisUrl`: child processes (1 = in this process). */
  readonly processes?: number;
  readonly outDir: string;
  readonly margin: number;
  /**
   * The share of orders (requests whose charges depend on their outcome) the emulated venue fails with its
   * own errors (Binance: -2010), charging what it charges on failure; default 0.
   */
  readonly failOrders?: number;
  /** Drive the venue's WebSocket limits too (connections, messages, WebSocket API requests sharing REST budgets, reconnect storms). */
  readonly ws?: boolean;
  /** Where the progress line and the summary go. */
  readonly out: NodeJS.WritableStream & { isTTY?: boolean };
  readonly signal?: AbortSignal;
  /** Serve Prometheus metrics of the run at `http://127.0.0.1:<metricsPort>/metrics` while it runs. */
  readonly metricsPort?: number | undefined;
  /**
   * Admission classes (default `true`): market data bulk, cancels critical by nature, hedges critical.
   * `false` admits every request as normal with nothing kept free, as before classes (`--no-classes`).
   */
  readonly classes?: boolean;
  /**
   * `'ccxt'`: the workers call ccxt's unified methods through `@core/ccxt-pacing` (`--client ccxt`) instead
   * of sending the venue's requests through `@core/paced-fetch` (`'fetch'`, the default).
   */
  readonly client?: 'fetch' | 'ccxt';
  /**
   * Called with the run's limiter before the workers start: a host can read its `snapshot()` while the
   * run lasts, as `exlimits inspect` reads a Redis store's (`inspectBuckets` gives the panel's rows).
   */
  readonly onLimiter?: (limiter: RateLimiter) => void;
}

/** The outcome of one venue's demo run. */
export interface DemoReport {
  readonly venue: string;
  /** How long the run took, in seconds. */
  readonly seconds: number;
  /** In process, on Redis, or in several processes. */
  readonly mode: string;
  readonly counts: WorkerCounts;
  readonly stats: EmulatorStats;
  readonly chartPath: string;
  /** With `ws`: what the WebSocket workers saw. */
  readonly wsCounts?: WsCounts;
  /** How long each class's requests waited for their send times, after each process's start-up. */
  readonly waits: readonly ClassWaitSummary[];
  /** The same, of the requests begun in a process's start-up (its first `START_UP_MS`), every kind of request listed. */
  readonly startUpWaits: readonly ClassWaitSummary[];
  /** With `client: 'ccxt'`: every API family's emulated venue (`venue` and `stats` are the busiest's). */
  readonly families?: readonly { readonly spec: string; readonly stats: EmulatorStats }[];
  readonly failure?: string;
}

function specOf(id: string): VenueSpec {
  try {
    return getVenueSpec(id);
  } catch (e) {
    throw new UsageError(`--venue: ${(e as Error).message}`);
  }
}

/**
 * Runs the demo against one emulated venue: starts the emulator, runs the workers (in process on the
 * in-process limiter, in process on a Redis limiter, or in child processes sharing Redis), shows a
 * progress line, then prints the summary and writes the SVG chart. With `client: 'ccxt'`, the workers
 * call ccxt's unified methods instead (see `runCcxtDemo`).
 *
 * @throws UsageError for an unknown venue; Error when Redis cannot be reached before the run.
 */
export async function runDemo(options: DemoOptions): Promise<DemoReport> {
  if (options.client === 'ccxt') return runCcxtDemo(options);
  const spec = specOf(options.venue);
  if (options.ws === true && !listWebSocketVenues().includes(spec.id)) {
    throw new UsageError(`--ws: ${spec.id} has no documented WebSocket limits; venues with WebSocket limits: ${listWebSocketVenues().join(', ')}`);
  }
  const lanes = options.ws === true ? restLanesForWs(spec) : lanesFor(spec);
  const credentials = Array.from({ length: options.credentials }, (_, i) => `demo-${spec.id}-key-${i + 1}`);
  const workers = options.workers ?? credentials.length * laneSlots(lanes).length;
  const processes = options.redisUrl === undefined ? 1 : (options.processes ?? 1);
  const durationMs = options.seconds * 1000;
  const out = options.out;

  let redis: RedisConnection | undefined;
  let limiter: RateLimiter;
  if (options.redisUrl !== undefined) {
    redis = await connectRedis(options.redisUrl, DEMO_PREFIX);
    limiter = redis.limiter;
    const reset = await limiter.resetVenue(spec.id);
    if (reset.kind === 'error') {
      await redis.close();
      throw new Error(`cannot clear the demo's old buckets in Redis at ${options.redisUrl}: ${reset.error.message}`);
    }
  } else {
    limiter = createDefaultRateLimiter();
  }

  let metrics: MetricsEndpoint | undefined;
  if (options.metricsPort !== undefined) {
    try {
      metrics = await startMetricsEndpoint(options.metricsPort);
    } catch (e) {
      if (redis !== undefined) await redis.close();
      else await limiter.close();
      throw e;
    }
    limiter = instrumentRateLimiter(limiter, { meterProvider: metrics.meterProvider, documentedLimit: documentedLimitOf });
  }
  const onAttempt = metrics === undefined ? undefined : pacedFetchMetrics({ meterProvider: metrics.meterProvider });

  // the venue runs in a process of its own: it counts arrivals on its own event loop, as a venue does
  const venue = await startEmulatorProcess(spec.id, options.ws === true ? WS_DROP_MS : undefined, options.failOrders);
  // Charges on an outcome (Binance's order weight) are admitted unreserved within an in-flight bound; each
  // process holds its share of the bound. The WebSocket workers reserve them, so with --ws the REST ones do too
  // (one definition per bucket).
  const deferredProcesses = options.ws === true ? undefined : processes;
  const wsCounts = emptyWsCounts();
  const wsWorkers = options.ws === true ? wsWorkerCount(spec.id, credentials.length) : 0;
  const classes = options.classes !== false;
  const mode = `${options.redisUrl === undefined ? 'in process' : processes > 1 ? `${processes} processes sharing Redis` : 'in process on Redis'}${classes ? '' : ', without classes'}`;
  out.write(
    `${spec.id}: ${workers} workers, ${credentials.length} credentials, ${options.seconds} s, ${mode}; lanes: ${lanes.map((l) => `${l.method} ${l.path.split('?')[0]}`).join(', ')}${wsWorkers > 0 ? `; ${wsWorkers} WebSocket workers (connections dropped every ${WS_DROP_MS / 1000} s)` : ''}\n`,
  );
  if (redis !== undefined) out.write(`  watch the buckets live: ${exlimitsCommand()} inspect --redis ${options.redisUrl} --prefix ${DEMO_PREFIX}\n`);
  if (metrics !== undefined) out.write(`  metrics (Prometheus): ${metrics.url}\n`);

  options.onLimiter?.(limiter);
  const live = emptyCounts();
  const progress = createProgressLine(out);
  const started = Date.now();
  const tick = setInterval(() => {
    const s = venue.latest();
    if (s !== undefined) progress.update(progressText(spec.id, (Date.now() - started) / 1000, options.seconds, s));
  }, 200);

  let result: RunWorkersResult;
  try {
    const workerIds = Array.from({ length: workers }, (_, i) => i);
    if (redis !== undefined && processes > 1) {
      result = await spawnWorkers(
        {
          processes,
          workers,
          // worker i in process i % processes: a credential's private requests are spread over every
          // process like its public ones (a window limit's usage header counts every process's sends
          // as this deployment's: the shared store knows them by their send times)
          job: {
            venue: spec.id,
            baseUrl: venue.url,
            redisUrl: options.redisUrl ?? '',
            prefix: DEMO_PREFIX,
            credentials,
            durationMs,
            margin: options.margin,
            classes,
            ...(deferredProcesses === undefined ? {} : { deferredProcesses }),
            ...(venue.wsUrl === undefined ? {} : { wsUrl: venue.wsUrl }),
          },
          wsWorkers,
          onAllReady: () => {
            progress.done();
            out.write(`  ${processes} worker processes running\n`);
          },
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        },
        live,
        wsCounts,
      );
    } else {
      const wsStop = new AbortController();
      const wsTimer = setTimeout(() => wsStop.abort(), durationMs);
      options.signal?.addEventListener('abort', () => wsStop.abort(), { once: true });
      const wsRun =
        venue.wsUrl === undefined
          ? Promise.resolve(undefined)
          : runWsWorkers(
              {
                venue: spec.id,
                wsUrl: venue.wsUrl,
                limiter,
                credentials,
                workerIds: Array.from({ length: wsWorkers }, (_, i) => i),
                margin: options.margin,
                signal: wsStop.signal,
              },
              wsCounts,
            );
      const [rest, wsFailure] = await Promise.all([
        runWorkers(
          {
            spec,
            baseUrl: venue.url,
            limiter,
            credentials,
            lanes,
            workerIds: lanes.length === 0 ? [] : workerIds,
            durationMs,
            margin: options.margin,
            deferredCharges: deferredProcesses === undefined ? false : { processes: deferredProcesses },
            classes,
            ...(options.signal === undefined ? {} : { signal: options.signal }),
            ...(onAttempt === undefined ? {} : { onAttempt }),
          },
          live,
        ),
        wsRun.finally(() => clearTimeout(wsTimer)),
      ]);
      result = wsFailure === undefined || rest.failure !== undefined ? rest : { ...rest, failure: wsFailure };
    }
  } finally {
    clearInterval(tick);
    progress.done();
  }
  const stats = await venue.stats();
  await venue.close();
  if (redis !== undefined) await redis.close();
  else await limiter.close();
  await metrics?.close();

  const elapsed = ((Date.now() - started) / 1000).toFixed(1);
  const evidence = venueEvidence(spec);
  const limit = limitLabel(evidence);
  out.write(`\n${spec.id}: ${elapsed} s, ${mode}\n`);
  out.write(
    evidence === 'documented'
      ? `  limits: documented (${spec.venue}'s own documentation, hand-authored)\n`
      : `  limits: estimated from ccxt ${spec.ccxtVersion ?? ''} (ccxt's own pacing of ${spec.venue}, not the venue's documentation)\n`,
  );
  out.write(
    `  requests the venue received ${stats.requests}   admitted ${stats.admitted}   refused ${stats.violations + stats.refusedWhileBanned}   bans ${stats.bans}   ` +
      `retries ${result.counts.retries}   not sent (wait over budget) ${result.counts.timeouts}   store errors ${result.counts.storeErrors}\n${COUNTS_LEGEND}\n\n`,
  );
  const failed = failedOrdersLine(spec, options.failOrders ?? 0, stats.failed);
  if (failed !== undefined) out.write(`${failed}\n\n`);
  out.write(`${summaryTable(stats, evidence)}\n`);
  if (stats.webSocket !== undefined) out.write(`\n${wsSummaryTable(stats, result.wsCounts ?? wsCounts)}`);
  out.write(`${tableLegend(limit)}\n`);
  if (stats.buckets.some((b) => b.algorithm !== 'token-bucket')) out.write(`${PACING_NOTE}\n`);
  const waits = classWaitSummary(result.waits ?? {});
  const startUpWaits = classWaitSummary(result.startUpWaits ?? {}, true);
  if (waits.length > 0) {
    out.write(`\n${classWaitTable(waits)}\n`);
    out.write(
      `  wait: from a request's admission call to its send time, per class (${classes ? 'market data bulk, cancels and hedges critical' : 'without classes: every request normal'})\n`,
    );
  }
  const startUp = startUpLine(startUpWaits, START_UP_MS);
  if (startUp !== undefined) out.write(`${startUp}\n`);

  await mkdir(options.outDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const chartPath = resolvePath(options.outDir, `${spec.id}-${stamp}.svg`);
  const title = `${spec.id}: usage per window against the ${limit}s (${elapsed} s, ${mode}, ${stats.violations + (stats.webSocket?.violations ?? 0)} violations)`;
  await writeFile(chartPath, renderUsageChart(title, [...busiestPerBucket(stats), ...wsChartBuckets(stats)], limit, stats.nowMs));
  out.write(`  chart: ${chartPath}\n`);
  const ws = options.ws === true ? { wsCounts: result.wsCounts ?? wsCounts } : {};
  const base = { venue: spec.id, seconds: Number(elapsed), mode, counts: result.counts, stats, chartPath, waits, startUpWaits, ...ws };
  return result.failure === undefined ? base : { ...base, failure: result.failure };
}
