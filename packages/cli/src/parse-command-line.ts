import { DEFAULT_MARGIN } from '@core/exchange-specs';
import { parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

/** The five venues `--venue all` runs. */
export const DEMO_VENUES = ['binance-spot', 'okx', 'bybit', 'kucoin', 'kraken'] as const;

/** The venues `--client ccxt --venue all` runs (ccxt-pacing's setups: Binance spot and USD-M, OKX, Bybit, KuCoin, Kraken). */
export const CCXT_DEMO_VENUE_NAMES = ['binance', 'binanceusdm', 'okx', 'bybit', 'kucoin', 'kraken'] as const;

/** The default `--fail-orders`: the emulated venue fails 5 % of orders. */
export const DEFAULT_FAIL_ORDERS = 0.05;

/** A parsed `demo` command. */
export interface DemoArgs {
  readonly command: 'demo';
  readonly venues: readonly string[];
  readonly seconds: number;
  readonly credentials: number;
  readonly workers: number | undefined;
  readonly redisUrl: string | undefined;
  readonly processes: number;
  readonly outDir: string;
  readonly margin: number;
  /** The share of orders the emulated venue fails (`--fail-orders`). */
  readonly failOrders: number;
  /** Serve Prometheus metrics on 127.0.0.1 at this port during the run. */
  readonly metricsPort: number | undefined;
  /** Print the summary as JSON (and nothing else) on stdout. */
  readonly json: boolean;
  /** Drive the venue's WebSocket limits too (`--ws`); absent without it. */
  readonly ws?: true;
  /** `--no-classes`: every request admitted as normal, nothing kept free (the comparison run); absent otherwise. */
  readonly noClasses?: true;
  /** `--client ccxt`: the workers call ccxt's unified methods through @core/ccxt-pacing; absent for the default (paced-fetch). */
  readonly client?: 'ccxt';
}

/** A parsed `inspect` command. */
export interface InspectArgs {
  readonly command: 'inspect';
  readonly redisUrl: string;
  readonly prefix: string;
  readonly intervalMs: number;
  readonly once: boolean;
  /** Serve Prometheus metrics on 127.0.0.1 at this port while it runs. */
  readonly metricsPort: number | undefined;
  /** Print each refresh as one line of JSON. */
  readonly json: boolean;
}

/** What the command line asks for. */
export type CommandLine =
  | DemoArgs
  | InspectArgs
  /** `missing`: no command was given (the help is then a usage error, exit 2). */
  | { readonly command: 'help'; readonly topic: 'main' | 'demo' | 'inspect'; readonly missing?: true }
  | { readonly command: 'version' };

function intOption(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return n;
}

/**
 * Checks a Redis URL: `redis://` or `rediss://`, with a host.
 *
 * @throws UsageError naming what is wrong and the expected shape.
 */
export function checkRedisUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--redis "${raw}" is not a URL; expected redis://host:port (for example redis://127.0.0.1:6390)`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new UsageError(`--redis "${raw}" must start with redis:// or rediss:// (for example redis://127.0.0.1:6390)`);
  }
  if (url.hostname === '') throw new UsageError(`--redis "${raw}" has no host; expected redis://host:port`);
  return raw;
}

/**
 * Parses `exlimits` arguments (without the node and script paths).
 *
 * @throws UsageError for an unknown command or option, a missing value, or a value out of range.
 */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const [command, ...rest] = argv;
  if (command === undefined) return { command: 'help', topic: 'main', missing: true };
  if (command === '--help' || command === '-h' || command === 'help') return { command: 'help', topic: 'main' };
  if (command === '--version' || command === '-v' || command === 'version') return { command: 'version' };
  if (command !== 'demo' && command !== 'inspect') {
    throw new UsageError(`unknown command "${command}"; the commands are demo and inspect (exlimits --help)`);
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...rest],
      strict: true,
      allowPositionals: false,
      options:
        command === 'demo'
          ? {
              venue: { type: 'string' },
              seconds: { type: 'string' },
              credentials: { type: 'string' },
              workers: { type: 'string' },
              redis: { type: 'string' },
              processes: { type: 'string' },
              out: { type: 'string' },
              margin: { type: 'string' },
              'fail-orders': { type: 'string' },
              'metrics-port': { type: 'string' },
              json: { type: 'boolean' },
              ws: { type: 'boolean' },
              'no-classes': { type: 'boolean' },
              client: { type: 'string' },
              help: { type: 'boolean', short: 'h' },
            }
          : {
              redis: { type: 'string' },
              prefix: { type: 'string' },
              interval: { type: 'string' },
              once: { type: 'boolean' },
              'metrics-port': { type: 'string' },
              json: { type: 'boolean' },
              help: { type: 'boolean', short: 'h' },
            },
    }).values;
  } catch (e) {
    throw new UsageError(`${(e as Error).message.replace(/\. To specify a positional argument.*$/s, '')} (exlimits ${command} --help)`);
  }
  if (values['help'] === true) return { command: 'help', topic: command };
  const str = (k: string): string | undefined => {
    const v = values[k];
    return typeof v === 'string' ? v : undefined;
  };

  const metricsRaw = str('metrics-port');
  const metricsPort = metricsRaw === undefined ? undefined : intOption('metrics-port', metricsRaw, 0, 1, 65_535);
  const json = values['json'] === true;

  if (command === 'inspect') {
    const redis = str('redis');
    if (redis === undefined) throw new UsageError('inspect needs --redis URL, the Redis the limiters share (for example --redis redis://127.0.0.1:6390)');
    const prefix = str('prefix') ?? 'rl:';
    if (prefix.includes('{') || prefix.includes('}')) throw new UsageError(`--prefix must not contain { or }, got "${prefix}"`);
    return {
      command: 'inspect',
      redisUrl: checkRedisUrl(redis),
      prefix,
      intervalMs: intOption('interval', str('interval'), 1000, 100, 3_600_000),
      once: values['once'] === true,
      metricsPort,
      json,
    };
  }

  const venue = str('venue') ?? 'okx';
  if (venue.trim() === '') throw new UsageError('--venue needs a venue id, for example --venue okx');
  const redis = str('redis');
  const processesRaw = str('processes');
  if (processesRaw !== undefined && redis === undefined) {
    throw new UsageError('--processes needs --redis URL: worker processes share their buckets through Redis');
  }
  const marginRaw = str('margin');
  const margin = marginRaw === undefined ? DEFAULT_MARGIN : Number(marginRaw);
  if (!(Number.isFinite(margin) && margin >= 0 && margin < 1))
    throw new UsageError(`--margin must be a number from 0 (inclusive) to 1 (exclusive), got "${marginRaw}"`);
  const failRaw = str('fail-orders');
  const failOrders = failRaw === undefined ? DEFAULT_FAIL_ORDERS : Number(failRaw);
  if (!(Number.isFinite(failOrders) && failOrders >= 0 && failOrders <= 1))
    throw new UsageError(`--fail-orders must be a number from 0 to 1, got "${failRaw}"`);
  const client = str('client') ?? 'fetch';
  if (client !== 'fetch' && client !== 'ccxt') throw new UsageError(`--client must be fetch (paced-fetch, the default) or ccxt, got "${client}"`);
  if (client === 'ccxt' && values['ws'] === true) throw new UsageError('--ws drives the venue with paced-websocket, not ccxt: leave out --client ccxt or --ws');
  const workersRaw = str('workers');
  const processes = intOption('processes', processesRaw, 1, 1, 64);
  if (metricsPort !== undefined && processes > 1) {
    throw new UsageError(
      '--metrics-port serves this process only: with --processes the workers run elsewhere (watch the shared buckets with exlimits inspect --redis URL --metrics-port N)',
    );
  }
  return {
    command: 'demo',
    venues: venue !== 'all' ? [venue] : client === 'ccxt' ? [...CCXT_DEMO_VENUE_NAMES] : [...DEMO_VENUES],
    seconds: intOption('seconds', str('seconds'), 20, 1, 86_400),
    credentials: intOption('credentials', str('credentials'), 3, 1, 100),
    workers: workersRaw === undefined ? undefined : intOption('workers', workersRaw, 0, 1, 1000),
    redisUrl: redis === undefined ? undefined : checkRedisUrl(redis),
    processes,
    outDir: str('out') ?? 'demo-out',
    margin,
    failOrders,
    metricsPort,
    json,
    ...(values['ws'] === true ? { ws: true as const } : {}),
    ...(values['no-classes'] === true ? { noClasses: true as const } : {}),
    ...(client === 'ccxt' ? { client: 'ccxt' as const } : {}),
  };
}
