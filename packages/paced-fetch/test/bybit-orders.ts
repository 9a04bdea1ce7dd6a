import type { ManualClock } from '@core/rate-limit-conformance';
import { settle } from '@core/rate-limit-conformance';

/**
 * Bybit's order/create as a venue: 10 per rolling second per account. It counts each request when it arrives (here
 * at once) and answers 5 ms later with what remains (`x-bapi-limit-status`). `most` is the largest count it saw.
 */
export function bybitOrderVenue(clock: ManualClock): { readonly fetch: () => Promise<Response>; readonly arrivals: number[]; most(): number } {
  const arrivals: number[] = [];
  let most = 0;
  const fetch = async (): Promise<Response> => {
    const t = clock.now();
    arrivals.push(t);
    const counted = arrivals.filter((a) => a > t - 1000).length;
    most = Math.max(most, counted);
    await new Promise<void>((r) => clock.setTimer(r, 5));
    const headers = {
      'content-type': 'application/json',
      'x-bapi-limit': '10',
      'x-bapi-limit-status': String(10 - counted),
      'x-bapi-limit-reset-timestamp': String(clock.now()),
    };
    return new Response('{"retCode":0,"retMsg":"OK","result":{}}', { status: 200, headers });
  };
  return { fetch, arrivals, most: () => most };
}

const ORDER = {
  method: 'POST',
  body: JSON.stringify({ category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.001', price: '60000' }),
  headers: { 'X-BAPI-API-KEY': 'key-1' },
};

/**
 * Sends orders as fast as `paced` admits them, `workersEach` loops on each, for 20 s of the clock; answers how many
 * arrived over the 16 s after the first 2 (`arrivals` is the venue's).
 */
export async function ordersInSteadyState(
  clock: ManualClock,
  paced: readonly ((url: string, init: RequestInit) => Promise<Response>)[],
  workersEach: number,
  arrivals: readonly number[],
): Promise<number> {
  const start = clock.now();
  let running = true;
  const worker = async (send: (typeof paced)[number]): Promise<void> => {
    while (running) await send('https://api.bybit.com/v5/order/create', ORDER);
  };
  const workers = paced.flatMap((send) => Array.from({ length: workersEach }, () => worker(send)));
  while (clock.now() < start + 20_000) {
    await settle();
    await clock.advance(1);
  }
  running = false;
  await clock.advance(2_000);
  await Promise.all(workers);
  return arrivals.filter((t) => t >= start + 2_000 && t < start + 18_000).length;
}
