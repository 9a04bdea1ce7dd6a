import { setMaxListeners } from 'node:events';
import type { CcxtVenueSetup, PaceExchangeOptions } from '@core/ccxt-pacing';
import type { AttemptEvent } from '@core/paced-fetch';
import type { RateLimiter } from '@core/rate-limit-contract';
import { emptyCounts, waitRecorder, type RunWorkersResult, type WorkerCounts } from './run-workers.js';
import { UsageError } from './usage-error.js';
import { CCXT_DEMO_VENUE_NAMES } from './parse-command-line.js';

/** The unified methods the ccxt demo's workers call: each a lane, 2 workers per credential by default. */
export const CCXT_METHODS = ['fetchOrderBook', 'fetchTicker', 'fetchBalance', 'createOrder', 'cancelOrder', 'fetchOpenOrders'] as const;
/** The budget of one wait: long, since many workers queue on a few buckets (Kraken's one public call a second); the end of the run stops the waits. */
const DEMO_MAX_WAIT_MS = 120_000;
/** Workers per credential per unified method in the default mix. */
export const CCXT_WORKERS_PER_METHOD = 2;

/** The spec ids that name a ccxt setup too. */
const BY_SPEC_ID: Readonly<Record<string, string>> = { 'binance-spot': 'binance', 'binance-usdm': 'binanceusdm' };

/** The ccxt setup name of `--venue` (`binance`, or the spec id `binance-spot`, ...). @throws UsageError for a venue the ccxt demo does not run. */
export function ccxtVenueName(venue: string): string {
  const name = BY_SPEC_ID[venue] ?? venue;
  if (!(CCXT_DEMO_VENUE_NAMES as readonly string[]).includes(name)) {
    throw new UsageError(
      `--client ccxt: no ccxt setup for "${venue}"; the ccxt demo runs ${CCXT_DEMO_VENUE_NAMES.join(', ')} (binance-spot and binance-usdm name the first two)`,
    );
  }
  return name;
}

/** ccxt and ccxt-pacing, loaded only for `--client ccxt` (ccxt is an optional peer dependency of the CLI). */
export async function loadCcxt(): Promise<{ ccxt: Record<string, unknown>; pacing: typeof import('@core/ccxt-pacing') }> {
  let ccxt: Record<string, unknown>;
  try {
    ccxt = ((await import('ccxt')) as { default: Record<string, unknown> }).default;
  } catch (e) {
    throw new UsageError(`--client ccxt needs ccxt installed beside the CLI (npm install ccxt): ${(e as Error).message}`);
  }
  return { ccxt, pacing: await import('@core/ccxt-pacing') };
}

/** ccxt errors by class, with the first few messages. */
export interface CcxtErrors {
  readonly byClass: Record<string, number>;
  readonly samples: string[];
}

/** Options of {@link runCcxtWorkers}. */
export interface RunCcxtWorkersOptions {
  /** The ccxt setup name (`binance`, `okx`, ...). */
  readonly venue: string;
  /** The emulators' base URLs by spec id (each API family's). */
  readonly baseBySpec: Readonly<Record<string, string>>;
  readonly limiter: RateLimiter;
  readonly credentials: readonly string[];
  /** The global indexes of the workers to run here: worker i uses credential i % K and method slot floor(i / K). */
  readonly workerIds: readonly number[];
  readonly durationMs: number;
  readonly margin: number;
  /** Processes sharing the limiter's store (ccxt-pacing's `processes`). */
  readonly processes?: number;
  /** `false`: every request normal with nothing kept free (`--no-classes`). */
  readonly classes?: boolean;
  readonly signal?: AbortSignal;
  readonly onAttempt?: (e: AttemptEvent) => void;
  /** Called once the markets are loaded and the workers start. */
  readonly onStart?: () => void;
}

/** {@link RunWorkersResult} with the ccxt errors. */
export interface RunCcxtWorkersResult extends RunWorkersResult {
  readonly calls: number;
  readonly errors: CcxtErrors;
}

/** The parts of a ccxt exchange the workers use. */
interface Ex {
  has: Record<string, unknown>;
  urls: { api: Record<string, unknown> };
  hostname?: string;
  markets?: unknown;
  currencies?: unknown;
  loadMarkets(reload?: boolean, params?: object): Promise<unknown>;
  setMarkets(markets: unknown, currencies?: unknown): unknown;
  fetchOrderBook(symbol: string): Promise<unknown>;
  fetchTicker(symbol: string): Promise<unknown>;
  fetchBalance(): Promise<unknown>;
  createOrder(symbol: string, type: string, side: string, amount: number, price: number): Promise<unknown>;
  cancelOrder(id: string, symbol: string, params: object): Promise<unknown>;
  fetchOpenOrders(symbol: string): Promise<unknown>;
}

function callOf(ex: Ex, setup: CcxtVenueSetup, method: (typeof CCXT_METHODS)[number]): Promise<unknown> {
  const s = setup.symbol;
  switch (method) {
    case 'createOrder':
      return ex.createOrder(s, 'limit', 'buy', 0.01, 60000);
    case 'cancelOrder':
      return ex.cancelOrder('123456', s, setup.cancelParams);
    case 'fetchBalance':
      return ex.fetchBalance();
    case 'fetchOrderBook':
      return ex.fetchOrderBook(s);
    case 'fetchTicker':
      return ex.fetchTicker(s);
    case 'fetchOpenOrders':
      return ex.fetchOpenOrders(s);
  }
}

/**
 * Runs ccxt demo workers for `durationMs` (after the markets are loaded): one paced ccxt exchange per
 * credential on `limiter`, each worker calling its unified method in a loop as fast as the pacing lets
 * it. The end of the run stops the calls still waiting (ccxt-pacing's `signal`). Every ccxt error but a
 * wait over budget or a store outage is counted and makes the run a failure.
 */
export async function runCcxtWorkers(options: RunCcxtWorkersOptions, counts: WorkerCounts = emptyCounts()): Promise<RunCcxtWorkersResult> {
  const { ccxt, pacing } = await loadCcxt();
  const setup = pacing.CCXT_VENUES[options.venue];
  if (setup === undefined) throw new UsageError(`--client ccxt: no ccxt setup named ${options.venue}`);
  const stop = new AbortController();
  // every call waiting for its send time listens on this one signal (and removes its listener when done)
  setMaxListeners(10 + 4 * options.workerIds.length, stop.signal);
  const onOuterAbort = (): void => stop.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const recorder = waitRecorder();
  const { waits, startUpWaits } = recorder;
  const onAttempt = (e: AttemptEvent): void => {
    recorder.add(e);
    counts.sent += 1;
    if (e.feedback.verdict === 'rate_limited' || e.feedback.verdict === 'banned') counts.refused += 1;
    if (e.feedback.verdict === 'banned') counts.banned += 1;
    if (e.willRetry) counts.retries += 1;
    counts.feedbackErrors += e.feedbackErrors.length;
    options.onAttempt?.(e);
  };
  const allNormal = options.limiter.capabilities.priorities === true && options.classes === false;
  const pace: PaceExchangeOptions = {
    limiter: options.limiter,
    signal: stop.signal,
    maxWaitMs: DEMO_MAX_WAIT_MS,
    ...(options.processes === undefined ? {} : { processes: options.processes }),
    pacing: { margin: options.margin, ...(allNormal ? { priority: 'normal', reserve: { normal: 0, bulk: 0 } } : {}) },
    onAttempt,
  };
  const Class = ccxt[setup.ccxtId] as new (config: object) => Ex;
  const exchanges = options.credentials.map((apiKey) => {
    const ex = new Class({ apiKey, secret: 'c2VjcmV0LXNlY3JldA==', password: 'passphrase', options: { ...setup.options } });
    for (const h of setup.hasOff) ex.has[h] = false;
    pacing.pointCcxtAt(ex.urls.api, options.baseBySpec, setup, ex.hostname);
    return pacing.paceExchange(ex as never, pace) as unknown as Ex;
  });
  const [first] = exchanges;
  if (first === undefined) throw new UsageError('--client ccxt needs at least one credential');
  await first.loadMarkets(false, setup.loadMarketsParams);
  for (const ex of exchanges.slice(1)) ex.setMarkets(first.markets, first.currencies);
  options.onStart?.();

  const errors: CcxtErrors = { byClass: {}, samples: [] };
  let calls = 0;
  const timer = setTimeout(() => stop.abort(), options.durationMs);
  const slots = CCXT_METHODS.flatMap((m) => Array.from({ length: CCXT_WORKERS_PER_METHOD }, () => m));
  const worker = async (id: number): Promise<void> => {
    const ex = exchanges[id % exchanges.length];
    const method = slots[Math.floor(id / exchanges.length) % slots.length];
    if (ex === undefined || method === undefined) return;
    while (!stop.signal.aborted) {
      try {
        await callOf(ex, setup, method);
        calls += 1;
      } catch (e) {
        const code = (e as { code?: unknown }).code;
        if (stop.signal.aborted && code === 'aborted') return;
        if (code === 'rate_limit_timeout') counts.timeouts += 1;
        else if (code === 'backend_unavailable') counts.storeErrors += 1;
        else {
          const name = (e as Error).constructor?.name ?? 'Error';
          errors.byClass[name] = (errors.byClass[name] ?? 0) + 1;
          if (errors.samples.length < 3) errors.samples.push(`${method}: ${name}: ${String((e as Error).message).slice(0, 200)}`);
        }
      }
    }
  };
  try {
    await Promise.all(options.workerIds.map((id) => worker(id)));
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
  const failed = Object.keys(errors.byClass).length > 0;
  const failure = failed ? `ccxt raised ${JSON.stringify(errors.byClass)}: ${errors.samples.join(' | ')}` : undefined;
  return { counts, waits, startUpWaits, calls, errors, ...(failure === undefined ? {} : { failure }) };
}
