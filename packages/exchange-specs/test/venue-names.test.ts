import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedSpecIds } from '../src/generated-specs.js';
import { getVenueSpec, handAuthoredSpecs, listVenues, resolveVenueId, validateSpec, venueEvidence, type VenueSpec } from '../src/index.js';

/** The venues with a hand-authored spec, by the plain name a user would try first. */
const PLAIN: Readonly<Record<string, string>> = {
  binance: 'binance-spot',
  binanceusdm: 'binance-usdm',
  binancecoinm: 'binance-coinm',
  okx: 'okx',
  kraken: 'kraken',
  bybit: 'bybit',
  kucoin: 'kucoin',
  gate: 'gate',
  htx: 'htx',
  bitget: 'bitget',
  coinbase: 'coinbase',
  bitfinex: 'bitfinex',
  deribit: 'deribit',
  bitstamp: 'bitstamp',
  hyperliquid: 'hyperliquid',
  mexc: 'mexc-spot',
  kucoinfutures: 'kucoin-futures',
  krakenfutures: 'kraken-futures',
};

/**
 * Hand-authored products without a ccxt id of their own: ccxt names the venue's spot and swap
 * markets with one id, which the venue's spot spec claims (`mexc` is `mexc-spot`).
 */
const SHARES_ITS_VENUES_CCXT_ID: Readonly<Record<string, string>> = {
  'mexc-futures': 'mexc-spot',
  'bitmart-futures': 'bitmart-spot',
};

/** ccxt ids a hand-authored spec names although ccxt 4.5.84 ships no such exchange any more (no estimate is generated). */
const DROPPED_BY_CCXT = new Set(['bitmart', 'ascendex']);

describe('a plain venue name is the documented spec of its main market', () => {
  it("getVenueSpec('binance') is Binance spot's hand-authored spec, not the ccxt estimate", () => {
    const spec = getVenueSpec('binance');
    expect(spec.id).toBe('binance-spot');
    expect(spec.origin).toBe('hand-authored');
  });

  it.each(Object.entries(PLAIN))('%s -> %s (hand-authored)', (name, id) => {
    expect(resolveVenueId(name)).toBe(id);
    expect(getVenueSpec(name).id).toBe(id);
    expect(getVenueSpec(name).origin).toBe('hand-authored');
  });

  it('the ccxt estimate of such a venue is only reachable by an explicit ccxt: id', () => {
    for (const [name, id] of Object.entries(PLAIN)) {
      const estimate = getVenueSpec(`ccxt:${name}`);
      expect(estimate.origin, name).toBe('ccxt-derived');
      expect(estimate.id, name).toBe(`ccxt:${name}`);
      expect(estimate.id).not.toBe(id);
    }
  });

  it('no name a hand-authored spec covers ever resolves to a ccxt-derived spec', () => {
    const covered = new Set(handAuthoredSpecs.flatMap((s) => [s.id, ...(s.ccxtIds ?? [])]));
    for (const v of listVenues()) {
      for (const name of [v.id, ...v.aliases]) {
        if (getVenueSpec(name).origin === 'ccxt-derived') expect(covered.has(name), name).toBe(false);
      }
    }
  });

  it('every hand-authored spec names the ccxt exchange it documents, and that exchange is generated', () => {
    const generated = new Set(generatedSpecIds());
    // A product ccxt has no exchange id of its own for (Binance options and /sapi: ccxt's `binance`
    // prices them with spot) is reached by its spec id; a sibling spec of its venue names the ccxt id.
    const named = new Set(handAuthoredSpecs.filter((s) => (s.ccxtIds?.length ?? 0) > 0).map((s) => s.venue));
    for (const s of handAuthoredSpecs) {
      const main = SHARES_ITS_VENUES_CCXT_ID[s.id];
      if (main !== undefined) {
        // the venue's spot spec claims the shared id
        expect(s.ccxtIds ?? [], s.id).toEqual([]);
        expect(handAuthoredSpecs.find((x) => x.id === main)?.ccxtIds?.length ?? 0, main).toBeGreaterThan(0);
        continue;
      }
      if ((s.ccxtIds?.length ?? 0) === 0 && named.has(s.venue)) continue;
      expect(s.ccxtIds?.length ?? 0, s.id).toBeGreaterThan(0);
      for (const c of s.ccxtIds ?? []) expect(generated.has(c) || DROPPED_BY_CCXT.has(c), `${s.id}: ${c}`).toBe(true);
    }
    for (const c of DROPPED_BY_CCXT) expect(generated.has(c), c).toBe(false);
    // HTX's USDT-margined contracts are in ccxt's htx, which names HTX spot here
    expect(resolveVenueId('htx')).toBe('htx');
    expect(getVenueSpec('htx-swap').ccxtIds).toBeUndefined();
  });

  it('a ccxt id dropped by ccxt still names its documented spec, and has no estimate', () => {
    expect(resolveVenueId('bitmart')).toBe('bitmart-spot');
    expect(getVenueSpec('bitmart').origin).toBe('hand-authored');
    expect(resolveVenueId('ccxt:bitmart')).toBeUndefined();
  });

  it('a ccxt exchange no hand-authored spec documents keeps its plain id, with ccxt:<id> as an alias', () => {
    expect(getVenueSpec('phemex').id).toBe('phemex');
    expect(getVenueSpec('ccxt:phemex')).toBe(getVenueSpec('phemex'));
    expect(getVenueSpec('bitvavo').origin).toBe('ccxt-derived');
  });
});

describe('listVenues says where each id comes from', () => {
  it('documented for hand-authored specs, estimated from ccxt for generated ones, with aliases', () => {
    const venues = listVenues();
    expect(venues.find((v) => v.id === 'binance-spot')).toEqual({ id: 'binance-spot', origin: 'hand-authored', evidence: 'documented', aliases: ['binance'] });
    expect(venues.find((v) => v.id === 'binance-usdm')).toEqual({
      id: 'binance-usdm',
      origin: 'hand-authored',
      evidence: 'documented',
      aliases: ['binanceusdm'],
    });
    expect(venues.find((v) => v.id === 'ccxt:binance')).toEqual({
      id: 'ccxt:binance',
      origin: 'ccxt-derived',
      evidence: 'estimated from ccxt',
      aliases: [],
      ccxtId: 'binance',
    });
    expect(venues.find((v) => v.id === 'phemex')).toEqual({
      id: 'phemex',
      origin: 'ccxt-derived',
      evidence: 'estimated from ccxt',
      aliases: ['ccxt:phemex'],
      ccxtId: 'phemex',
    });
    expect(venues.find((v) => v.id === 'mexc-spot')).toEqual({ id: 'mexc-spot', origin: 'hand-authored', evidence: 'documented', aliases: ['mexc'] });
    expect(venues.find((v) => v.id === 'ccxt:mexc')).toEqual({
      id: 'ccxt:mexc',
      origin: 'ccxt-derived',
      evidence: 'estimated from ccxt',
      aliases: [],
      ccxtId: 'mexc',
    });
    for (const v of venues) {
      expect(v.evidence, v.id).toBe(v.origin === 'hand-authored' ? 'documented' : 'estimated from ccxt');
      expect(venueEvidence(getVenueSpec(v.id))).toBe(v.evidence);
    }
    // every name is unique
    const names = venues.flatMap((v) => [v.id, ...v.aliases]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('an unknown name is a clear error', () => {
    expect(resolveVenueId('no-such-venue')).toBeUndefined();
    expect(() => getVenueSpec('no-such-venue')).toThrow(/unknown venue "no-such-venue"/);
  });
});

describe('ccxtIds is validated', () => {
  const hand = handAuthoredSpecs.find((s) => s.id === 'binance-spot') as VenueSpec;
  it('accepts ccxt exchange ids on a hand-authored spec', () => {
    expect(validateSpec(hand).ok).toBe(true);
  });
  it('refuses malformed or repeated ids, and ids on a ccxt-derived spec', () => {
    const errors = (data: unknown): string[] => {
      const r = validateSpec(data);
      return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
    };
    expect(errors({ ...hand, ccxtIds: ['Binance Spot'] })).toEqual([expect.stringContaining('ccxtIds[0]: expected a ccxt exchange id') as string]);
    expect(errors({ ...hand, ccxtIds: ['binance', 'binance'] })).toEqual(['ccxtIds[1]: duplicate ccxt id "binance"']);
    expect(errors({ ...getVenueSpec('phemex'), ccxtIds: ['phemex'] })).toEqual(['ccxtIds: only a hand-authored spec names the ccxt exchanges it documents']);
  });
});

describe('the README says the same', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  it('names the origin of each id and how plain names resolve', () => {
    expect(readme).toContain("getVenueSpec('binance')");
    expect(readme).toContain('`binance` → `binance-spot`');
    expect(readme).toContain('estimated from ccxt');
    expect(readme).toContain('`ccxt:binance`');
  });
});
