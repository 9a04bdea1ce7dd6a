// The workload of the tests and the bench, in plain JavaScript so that child processes run it from the built
// package: one ccxt exchange per process, paced or not, pointed at emulated venues, and workers that call
// ccxt's unified methods in a loop as fast as they are let.
import ccxt from 'ccxt';
import { CCXT_VENUES, paceExchange, pointCcxtAt } from '../../dist/index.js';

/** A ccxt exchange of a setup, pointed at the emulators (`baseBySpec`), paced when `pace` is given. */
export function makeExchange(name, baseBySpec, { apiKey = 'ccxt-test-key', pace, options = {}, fetchImplementation } = {}) {
  const setup = CCXT_VENUES[name];
  if (setup === undefined) throw new Error(`no ccxt setup named ${name}`);
  const ex = new ccxt[setup.ccxtId]({
    apiKey,
    secret: 'c2VjcmV0LXNlY3JldA==',
    password: 'passphrase',
    enableRateLimit: false,
    options: { ...setup.options, ...options },
  });
  for (const h of setup.hasOff) ex.has[h] = false;
  pointCcxtAt(ex.urls.api, baseBySpec, setup, ex.hostname);
  if (fetchImplementation !== undefined) ex.fetchImplementation = fetchImplementation;
  if (pace !== undefined) paceExchange(ex, pace);
  return { ex, setup };
}

/** The unified calls of one round, in order. */
export const ROUND = ['fetchOrderBook', 'fetchTicker', 'fetchBalance', 'createOrder', 'cancelOrder', 'fetchOpenOrders'];

/**
 * Runs `workers` loops of the unified calls until `stop()` says so (a call under way then completes); worker w
 * starts with call `first + w` of the round. Counts calls (by method too) and errors by class.
 */
export async function runWorkload(ex, setup, { workers, stop, calls = ROUND, first = 0 }) {
  const counts = { calls: 0, byMethod: {}, errors: {}, samples: [] };
  const call = (name) => {
    switch (name) {
      case 'fetchOrderBook':
        return ex.fetchOrderBook(setup.symbol);
      case 'fetchTicker':
        return ex.fetchTicker(setup.symbol);
      case 'fetchBalance':
        return ex.fetchBalance();
      case 'createOrder':
        return ex.createOrder(setup.symbol, 'limit', 'buy', 0.01, 60000);
      case 'cancelOrder':
        return ex.cancelOrder('123456', setup.symbol, setup.cancelParams);
      case 'fetchOpenOrders':
        return ex.fetchOpenOrders(setup.symbol);
      default:
        throw new Error(`unknown call ${name}`);
    }
  };
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = first + w; !stop(); i++) {
        const name = calls[i % calls.length];
        try {
          await call(name);
          counts.calls += 1;
          counts.byMethod[name] = (counts.byMethod[name] ?? 0) + 1;
        } catch (e) {
          const name = e?.constructor?.name ?? 'Error';
          counts.errors[name] = (counts.errors[name] ?? 0) + 1;
          if (counts.samples.length < 3) counts.samples.push(`${name}: ${String(e?.message ?? e).slice(0, 300)}`);
        }
      }
    }),
  );
  return counts;
}
