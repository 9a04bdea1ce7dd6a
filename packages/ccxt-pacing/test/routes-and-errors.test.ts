import { DDoSProtection, ExchangeNotAvailable, NotSupported, RequestTimeout } from 'ccxt';
import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { routeCall, estimateSpec } from '../src/index.js';
import { startCcxtVenue, type EmulatedCcxtVenue } from './support/emulated-venue.js';
import { makeExchange } from './support/workload.mjs';

const route = (id: string, url: string, api?: unknown): string | undefined => routeCall(id, { url: new URL(url), ...(api === undefined ? {} : { api }) });

describe('routeCall: each HTTP call to the spec of its API family', () => {
  it('Binance by path, on any host', () => {
    expect(route('binance', 'https://api.binance.com/api/v3/depth?symbol=BTCUSDT')).toBe('binance-spot');
    expect(route('binance', 'https://api.binance.com/sapi/v1/capital/config/getall')).toBe('binance-sapi');
    expect(route('binance', 'http://127.0.0.1:4000/fapi/v1/exchangeInfo')).toBe('binance-usdm');
    expect(route('binanceusdm', 'https://dapi.binance.com/dapi/v1/exchangeInfo')).toBe('binance-coinm');
    expect(route('binance', 'https://eapi.binance.com/eapi/v1/exchangeInfo')).toBe('binance-options');
    expect(route('binance', 'http://127.0.0.1:4001/futures/data/openInterestHist', 'dapiData')).toBe('binance-coinm');
    expect(route('binance', 'https://fapi.binance.com/futures/data/openInterestHist')).toBe('binance-usdm');
    // no spec prices /papi: binance-spot, the plain name's spec, refuses it naming the path
    expect(route('binance', 'https://papi.binance.com/papi/v1/balance')).toBe('binance-spot');
  });

  it('KuCoin, HTX, MEXC and Kraken by family; the other documented venues by their ccxt id', () => {
    expect(route('kucoin', 'http://127.0.0.1:1/api/v1/contracts/active', 'futuresPublic')).toBe('kucoin-futures');
    expect(route('kucoin', 'https://api.kucoin.com/api/ua/v1/account/mode', 'utaPrivate')).toBe('kucoin-unified');
    expect(route('kucoin', 'https://api.kucoin.com/api/v2/symbols', 'public')).toBe('kucoin');
    expect(route('kucoinfutures', 'https://api-futures.kucoin.com/api/v1/contracts/active')).toBe('kucoin-futures');
    expect(route('htx', 'https://api.hbdm.com/linear-swap-api/v1/swap_order', ['contract', 'private'])).toBe('htx-swap');
    expect(route('htx', 'https://api.huobi.pro/market/depth')).toBe('htx');
    expect(route('mexc', 'https://api.mexc.com/api/v1/contract/detail', ['contract', 'public'])).toBe('mexc-futures');
    expect(route('mexc', 'https://api.mexc.com/api/v3/depth', ['spot', 'public'])).toBe('mexc-spot');
    expect(route('krakenfutures', 'https://futures.kraken.com/derivatives/api/v3/tickers')).toBe('kraken-futures');
    for (const [id, spec] of [
      ['okx', 'okx'],
      ['bybit', 'bybit'],
      ['kraken', 'kraken'],
      ['gate', 'gate'],
      ['bitget', 'bitget'],
      ['coinbase', 'coinbase'],
      ['bitfinex', 'bitfinex'],
      ['deribit', 'deribit'],
      ['bitstamp', 'bitstamp'],
      ['hyperliquid', 'hyperliquid'],
      ['coinbaseinternational', 'coinbase-intx'],
      ['bitmart', 'bitmart-spot'],
    ]) {
      expect(route(id as string, 'https://venue.invalid/x')).toBe(spec);
    }
    expect(route('phemex', 'https://api.phemex.com/md/orderbook')).toBeUndefined();
    expect(estimateSpec('phemex')).toBe('phemex');
    expect(estimateSpec('binance')).toBe('ccxt:binance');
  });
});

describe("pacing failures are ccxt's error classes, unsent, the PacedFetchError as cause", () => {
  let venue: EmulatedCcxtVenue | undefined;
  afterEach(async () => {
    await venue?.close();
    venue = undefined;
  });

  it('a call no documented spec prices is refused before it is sent (NotSupported naming the venue and path)', async () => {
    venue = await startCcxtVenue('binance');
    const limiter = createDefaultRateLimiter();
    const { ex } = makeExchange('binance', venue.baseBySpec, { pace: { limiter } });
    ex.urls['api']['papi'] = `${venue.baseBySpec['binance-spot']}/papi/v1`;
    const e = await (ex as unknown as { papiGetBalance(): Promise<unknown> }).papiGetBalance().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(NotSupported);
    expect((e as Error).message).toContain('binance GET /papi/v1/balance');
    expect((e as Error).message).toContain('binance-spot cannot price it');
    expect((e as { cause?: { code?: string } }).cause?.code).toBe('unknown_endpoint');
    expect(venue.totals().requests).toBe(0);
    await limiter.close();
  });

  it('a wait over maxWaitMs is RequestTimeout; a venue hold is DDoSProtection; a stopped pacing and a closed store are ExchangeNotAvailable', {
    timeout: 30_000,
  }, async () => {
    venue = await startCcxtVenue('kraken');
    const limiter = createDefaultRateLimiter();
    const loader = makeExchange('kraken', venue.baseBySpec, { pace: { limiter } }).ex;
    await loader.loadMarkets();
    const { ex, setup } = makeExchange('kraken', venue.baseBySpec, { pace: { limiter, maxWaitMs: 1 } });
    ex.setMarkets(loader.markets);
    // Kraken's public calls: one a second per IP. A call counted just now (a record: a send now, RL-V2) makes the
    // next one wait about a second, however long the first call took on a busy machine
    const PUBLIC = { venue: 'kraken', credential: null, axis: 'public' };
    await ex.fetchTicker(setup.symbol).catch(() => undefined);
    limiter.record(PUBLIC, 1);
    const timeout = await ex.fetchTicker(setup.symbol).catch((x: unknown) => x);
    expect(timeout).toBeInstanceOf(RequestTimeout);
    expect((timeout as { code?: string }).code).toBe('rate_limit_timeout');

    // options.signal stops a call that waits (Kraken's next public slot is a second away): unsent, at once
    const stop = new AbortController();
    const stopped = makeExchange('kraken', venue.baseBySpec, { pace: { limiter, signal: stop.signal } }).ex;
    stopped.setMarkets(loader.markets);
    const sentBefore = venue.totals().requests;
    limiter.record(PUBLIC, 1);
    const waiting = stopped.fetchTrades(setup.symbol).catch((x: unknown) => x);
    setTimeout(() => stop.abort(), 50);
    const aborted = await waiting;
    expect(aborted).toBeInstanceOf(ExchangeNotAvailable);
    expect((aborted as { code?: string }).code).toBe('aborted');
    expect(await stopped.fetchTicker(setup.symbol).catch((x: unknown) => (x as { code?: string }).code)).toBe('aborted');
    expect(venue.totals().requests).toBe(sentBefore);

    await limiter.penalize(PUBLIC, { forMs: 60_000 });
    const held = await ex.fetchOrderBook(setup.symbol).catch((x: unknown) => x);
    expect(held).toBeInstanceOf(DDoSProtection);

    await limiter.close();
    const closed = await ex.fetchTicker(setup.symbol).catch((x: unknown) => x);
    expect(closed).toBeInstanceOf(ExchangeNotAvailable);
    expect(venue.totals().violations).toBe(0);
  });
});
