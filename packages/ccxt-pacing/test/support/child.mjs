// One worker process of the multi-process test, kept for every venue in turn (ccxt loads once per process):
// for each venue, a paced ccxt exchange on a Redis limiter shared by the processes; one process loads the
// markets (paced) and the others get them from the parent, then workers call the unified methods until the
// deadline; counts go back to the parent. Messages: load, prepare, start, exit.
import { createRateLimiter } from '@core/redis-rate-limiter';
import { makeExchange, runWorkload } from './workload.mjs';

const { redisUrl } = JSON.parse(process.argv[2]);
/** The venue being run: its limiter and exchange. */
let session;

async function open(job) {
  if (session?.venue === job.venue) return session;
  const limiter = await createRateLimiter({ url: redisUrl, prefix: job.prefix, timeoutMs: 1_000 });
  const { ex, setup } = makeExchange(job.venue, job.baseBySpec, { pace: { limiter, processes: job.processes } });
  session = { venue: job.venue, limiter, ex, setup };
  return session;
}

process.on('message', (m) => {
  void (async () => {
    try {
      if (m.type === 'load') {
        const { ex, setup } = await open(m);
        await ex.loadMarkets(false, setup.loadMarketsParams);
        process.send?.({ type: 'markets', markets: ex.markets, currencies: ex.currencies });
      } else if (m.type === 'prepare') {
        const { ex } = await open(m);
        if (m.markets !== undefined) ex.setMarkets(m.markets, m.currencies);
        process.send?.({ type: 'ready' });
      } else if (m.type === 'start') {
        const s = session;
        const counts = await runWorkload(s.ex, s.setup, { workers: m.workers, first: m.first, stop: () => Date.now() >= m.until });
        session = undefined;
        await s.limiter.close();
        process.send?.({ type: 'done', counts });
      } else if (m.type === 'exit') {
        await session?.limiter.close();
        process.disconnect();
      }
    } catch (e) {
      process.send?.({ type: 'failed', message: String(e?.stack ?? e) });
    }
  })();
});
process.send?.({ type: 'up' });
