import { setMaxListeners } from 'node:events';
import type { RateLimiter } from '@core/rate-limit-contract';
import { CapRegistry, isPacedWebSocketError, openPacedWebSocket, type PacedWebSocket, type WebSocketAttemptEvent } from '@core/paced-websocket';
import { wsLanesFor, type WsLane } from './ws-workloads.js';

/** What the WebSocket workers saw, summed. */
export interface WsCounts {
  /** Connection attempts that went out (reconnects included). */
  connects: number;
  /** Attempts the server refused or that failed. */
  connectFailures: number;
  /** Messages and frames sent. */
  messages: number;
  /** Connections the server dropped (the client reconnected through its connection buckets). */
  drops: number;
  /** Messages not sent because the client refused them (a cap, a size): counted, never sent. */
  refusedByClient: number;
  /** Waits over their budget (nothing sent). */
  timeouts: number;
}

/** Zeroed counts. */
export function emptyWsCounts(): WsCounts {
  return { connects: 0, connectFailures: 0, messages: 0, drops: 0, refusedByClient: 0, timeouts: 0 };
}

/** Options of {@link runWsWorkers}. */
export interface RunWsWorkersOptions {
  readonly venue: string;
  /** The emulator's WebSocket base URL (`ws://host:port/ws`). */
  readonly wsUrl: string;
  readonly limiter: RateLimiter;
  readonly credentials: readonly string[];
  /** Which (credential, lane) workers run here: worker i is credential i % K, lane floor(i / K). */
  readonly workerIds: readonly number[];
  readonly margin: number;
  readonly signal: AbortSignal;
  /** The share of every connection and subscription cap these workers may use (1 / processes); default 1. */
  readonly capShare?: number;
}

/** The number of WebSocket workers of a venue: one per credential and lane. */
export function wsWorkerCount(venue: string, credentials: number): number {
  return wsLanesFor(venue).length * credentials;
}

/** How long a worker waits for a paced WebSocket: long, the end of the run aborts it. */
const WAIT_MS = 120_000;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * Runs the demo's WebSocket workers until `signal` aborts: each opens a paced WebSocket to its lane's
 * endpoint on the emulator and sends its lane's messages as fast as the buckets allow, reopening the
 * connection as its lane says (reconnect storms through the connection buckets); the emulator's own
 * drops are reconnected by the client. A failure that is not a pacing outcome ends the run.
 *
 * @returns the failure that ended the run early, if any.
 */
export async function runWsWorkers(options: RunWsWorkersOptions, counts: WsCounts): Promise<string | undefined> {
  const lanes = wsLanesFor(options.venue);
  // Every worker's connection and pause listens on the run's signal (and removes its listener when done).
  setMaxListeners(10 + 8 * options.workerIds.length, options.signal);
  const caps = new CapRegistry({ share: options.capShare ?? 1 });
  let failure: string | undefined;
  const onAttempt = (e: WebSocketAttemptEvent): void => {
    if (e.what === 'message') counts.messages += 1;
    else {
      counts.connects += 1;
      if (e.outcome === 'failed') counts.connectFailures += 1;
    }
  };
  const openFor = (lane: WsLane, credential: string): Promise<PacedWebSocket> =>
    openPacedWebSocket({
      venue: options.venue,
      endpoint: lane.endpoint,
      url: `${options.wsUrl}/${lane.endpoint}${lane.private ? `?apiKey=${encodeURIComponent(credential)}` : ''}`,
      identity: { credential: lane.private ? credential : null },
      limiter: options.limiter,
      margin: options.margin,
      maxWaitMs: WAIT_MS,
      caps,
      reconnect: { maxAttempts: 1000, initialDelayMs: 20, maxDelayMs: 500, maxWaitMs: WAIT_MS },
      // the end of the run also ends a wait to open (Binance's connection bucket can hold one for minutes)
      signal: options.signal,
      onAttempt,
      onClose: (info) => {
        if (info.willReconnect) counts.drops += 1;
      },
    });

  const outcome = (e: unknown): 'retry' | 'reopen' | 'stop' => {
    if (options.signal.aborted) return 'stop';
    if (!isPacedWebSocketError(e)) {
      failure ??= `WebSocket: ${(e as Error).message}`;
      return 'stop';
    }
    switch (e.code) {
      case 'rate_limit_timeout':
        counts.timeouts += 1;
        return 'retry';
      case 'subscription_cap':
      case 'too_many_topics':
      case 'message_too_large':
      case 'connection_cap':
        counts.refusedByClient += 1;
        return 'retry';
      case 'connection_closed':
        return 'retry';
      case 'closed':
      case 'aborted':
      case 'unreachable':
        return 'reopen';
      default:
        failure ??= `WebSocket ${e.code}: ${e.message}`;
        return 'stop';
    }
  };

  const hold = async (lane: WsLane, credential: string): Promise<void> => {
    const open: PacedWebSocket[] = [];
    try {
      for (let i = 0; i < (lane.hold ?? 0) && !options.signal.aborted; i++) {
        try {
          open.push(await openFor(lane, credential));
        } catch (e) {
          if (outcome(e) === 'stop') return;
        }
      }
      await pause(1e9, options.signal);
    } finally {
      await Promise.all(open.map((c) => c.close()));
    }
  };

  const worker = async (id: number): Promise<void> => {
    const credential = options.credentials[id % options.credentials.length] ?? 'demo-key';
    const lane = lanes[Math.floor(id / options.credentials.length) % Math.max(1, lanes.length)];
    if (lane === undefined || (lane.once === true && id % options.credentials.length !== 0)) return;
    if (lane.hold !== undefined) return hold(lane, credential);
    while (!options.signal.aborted && failure === undefined) {
      let ws: PacedWebSocket;
      try {
        ws = await openFor(lane, credential);
      } catch (e) {
        if (outcome(e) === 'stop') return;
        await pause(50, options.signal);
        continue;
      }
      const stop = (): void => void ws.close();
      options.signal.addEventListener('abort', stop, { once: true });
      try {
        for (let i = 0; !options.signal.aborted; i++) {
          if (lane.reopenEvery !== undefined && i >= lane.reopenEvery) break;
          if (ws.state === 'closed') break;
          if (ws.state === 'reconnecting') {
            await pause(20, options.signal);
            i--;
            continue;
          }
          try {
            await ws.send(lane.message?.(i, credential) ?? 'ping');
          } catch (e) {
            const o = outcome(e);
            if (o === 'stop') return;
            if (o === 'reopen') break;
          }
          // Let the other workers and the sockets run between messages of venues without message buckets.
          await new Promise((r) => setImmediate(r));
        }
      } finally {
        options.signal.removeEventListener('abort', stop);
        await ws.close();
      }
    }
  };

  await Promise.all(options.workerIds.map((id) => worker(id)));
  return failure;
}
