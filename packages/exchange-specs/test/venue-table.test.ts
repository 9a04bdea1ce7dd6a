import { describe, expect, it } from 'vitest';
import { listVenues, venueTable } from '../src/index.js';

const table = venueTable();
const rows = table.split('\n');
const coverageHeader = '| Venue | Spot | Perpetual | Delivery | Options | Wallet | Margin | Estimated (ccxt) |';
const row = (venue: string) => rows.find((r) => r.startsWith(`| ${venue} |`))?.split(' | ');

describe('the venue table shows per venue a column per market', () => {
  it('has the product columns in order: spot, perpetual, delivery, options, wallet, margin', () => {
    expect(rows).toContain(coverageHeader);
  });

  it('names the documented spec of each Binance market, and the ccxt estimates apart', () => {
    const binance = row('Binance');
    expect(binance?.slice(1, 7)).toEqual([
      'documented: `binance-spot`',
      'documented: `binance-usdm`, `binance-coinm`',
      'documented: `binance-usdm`, `binance-coinm`',
      'documented: `binance-options`',
      'documented: `binance-sapi`',
      'documented: `binance-sapi`',
    ]);
    expect(binance?.[7]).toBe('`ccxt:binance`, `ccxt:binancecoinm`, `ccxt:binanceusdm`: all endpoints, estimated |');
  });

  it('a market no documented spec covers shows —', () => {
    expect(row('Bitstamp')?.slice(2, 7)).toEqual(['—', '—', '—', '—', '—']);
  });

  it('ccxt-derived venues are all endpoints, estimated, in the coverage table and in their own rows', () => {
    const others = listVenues().filter((v) => v.origin === 'ccxt-derived' && !v.id.startsWith('ccxt:')).length;
    expect(rows.find((r) => r.startsWith(`| ${others} other venues (below) |`))).toBe(
      `| ${others} other venues (below) |${' all endpoints, estimated |'.repeat(7)}`,
    );
    const plain = listVenues().find((v) => v.origin === 'ccxt-derived' && !v.id.startsWith('ccxt:'))!.id;
    expect(rows.find((r) => r.startsWith(`| \`${plain}\` |`))).toContain('| estimated from ccxt | all endpoints, estimated |');
  });

  it('each hand-authored spec row shows the date its numbers were last checked against the source', () => {
    expect(rows).toContain('| Venue | Product | Markets | Buckets | Endpoints | Sources | Retrieved | Checked | Confidence |');
    expect(rows.find((r) => r.startsWith('| `kraken` |'))).toContain('| 2026-12-07 |');
    expect(rows.find((r) => r.startsWith('| `binance-spot` |'))).toContain('| 2026-12-01 |');
  });

  it("each hand-authored spec row lists its markets and counts a bucket's tiers", () => {
    expect(rows.find((r) => r.startsWith('| `binance-sapi` |'))).toContain('| wallet, margin |');
    expect(rows.find((r) => r.startsWith('| `binance-usdm` |'))).toContain('`orders_1m` 1200 / 1 min (uid, aligned; 7 tiers)');
  });
});
