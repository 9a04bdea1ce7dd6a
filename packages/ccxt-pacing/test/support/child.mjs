// One worker process of the multi-process test: a paced ccxt exchange on the shared Redis limiter, workers
// calling the unified methods until the deadline; reports its counts to the parent and exits.
import { createRateLimiter } from '@core/redis-rate-limiter';
import { makeExchange, runWorkload } from './workload.mjs';

const job = JSON.parse(process.argv[2]);
const limiter = await createRateLimiter({ url: job.redisUrl, prefix: job.prefix, timeoutMs: 1_000 });
try {
  const { ex, setup } = makeExchange(job.venue, job.baseBySpec, { pace: { limiter, processes: job.processes } });
  await ex.loadMarkets(false, setup.loadMarketsParams);
  process.send?.({ type: 'ready' });
  const start = await new Promise((resolve) => process.once('message', resolve));
  const counts = await runWorkload(ex, setup, { workers: job.workers, stop: () => Date.now() >= start.until });
  process.send?.({ type: 'done', counts });
} finally {
  await limiter.close();
}
