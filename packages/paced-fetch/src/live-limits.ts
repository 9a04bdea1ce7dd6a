import type { Clock } from '@core/rate-limit-contract';
import { readLiveLimits, type Identity, type LiveLimitsOptions, type LiveLimitsResult, type VenueSpec } from '@core/exchange-specs';
import { abortReason } from './sleep.js';

/** How a paced fetch reads the venue's published limits (the `liveLimits` option). */
export interface LiveLimitsSetting {
  /** The venue's base URL; default the origin of the first request. */
  readonly baseUrl?: string | URL;
  /**
   * Authenticates the private sources' requests (the venue's API-key header, timestamp, signature):
   * Binance `rateLimit/order`, Bybit `apilimit/query`, OKX `account-rate-limit`, KuCoin `user-info`.
   * Without it only public sources are read (Binance `exchangeInfo`).
   */
  readonly authenticate?: LiveLimitsOptions['authenticate'];
  /** The ids of the sources to read (exchange-specs' `liveLimitSources`); default all that can be read. */
  readonly sources?: readonly string[];
}

interface Reader {
  readonly setting: LiveLimitsSetting;
  readonly identity: Identity;
  readonly clock: Clock;
  /** Sends through the paced client (paced and charged), without waiting for the reading. */
  readonly send: (input: string, init?: RequestInit) => Promise<Response>;
  /** The spec in force now. */
  readonly spec: () => VenueSpec;
  /** Puts the venue's spec in force. */
  readonly use: (spec: VenueSpec) => void;
  readonly report?: (result: LiveLimitsResult) => void;
}

function originOf(input: string | URL | Request): string | undefined {
  try {
    return new URL(input instanceof Request ? input.url : String(input)).origin;
  } catch {
    return undefined;
  }
}

function untilAborted(p: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return p;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    void p.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/**
 * The live-limits reading of one paced fetch: started by the first request (from its origin unless
 * `baseUrl` is set), read once and shared by every request that arrives meanwhile. The reading goes
 * through the paced client itself, so it is paced and charged like any other request. It never
 * rejects: a failure leaves the stored spec in force and is reported.
 */
export function readLiveLimitsOnce(reader: Reader): { ready(input: string | URL | Request, signal: AbortSignal | undefined): Promise<void> } {
  let reading: Promise<void> | undefined;
  const start = (baseUrl: string | URL): Promise<void> =>
    (async () => {
      const { setting } = reader;
      const result = await readLiveLimits(reader.spec(), {
        fetch: (url, init) => reader.send(url, init),
        baseUrl,
        identity: reader.identity,
        now: () => reader.clock.now(),
        ...(setting.authenticate === undefined ? {} : { authenticate: setting.authenticate }),
        ...(setting.sources === undefined ? {} : { sources: setting.sources }),
      });
      if (result.ok) reader.use(result.spec);
      try {
        reader.report?.(result);
      } catch {
        // A reporting callback must not take the client down; the result is in force either way.
      }
    })();
  return {
    ready(input, signal) {
      if (reading === undefined) {
        const baseUrl = reader.setting.baseUrl ?? originOf(input);
        // A request without a URL to read from fails on its own (readFetchCall); the next one starts the reading.
        if (baseUrl === undefined) return Promise.resolve();
        reading = start(baseUrl);
      }
      return untilAborted(reading, signal);
    },
  };
}
