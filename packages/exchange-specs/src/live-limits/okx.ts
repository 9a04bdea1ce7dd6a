import { LiveLimitsError } from './live-limits-error.js';
import type { FieldDocumentation, LiveLimitSource, LiveStatement } from './live-limit-source.js';
import { array, decimalStringOrEmpty, keys, nonNegativeIntegerString, object, positiveIntegerString, shown, string } from './strict-json.js';

const READ = '2026-12-01';
const URL_ = 'https://www.okx.com/docs-v5/en/#order-book-trading-trade-get-account-rate-limit';

/** The bucket of the `okx` spec that `accRateLimit` states: new and amended orders per sub-account per 2 s. */
export const OKX_SUBACCOUNT_BUCKET = 'subaccount-orders';

const documentation: readonly FieldDocumentation[] = [
  {
    field: '(request)',
    url: URL_,
    retrieved: READ,
    quote:
      'Get account rate limit related information. Only new order requests and amendment order requests will be counted towards this limit. For batch order requests consisting of multiple orders, each order will be counted individually. Rate Limit: 1 request per second Rate limit rule: User ID GET /api/v5/trade/account-rate-limit',
  },
  {
    field: 'code, msg, data',
    url: URL_,
    retrieved: READ,
    quote:
      '{ "code":"0", "data":[ { "accRateLimit":"2000", "fillRatio":"0.1234", "mainFillRatio":"0.1234", "nextAccRateLimit":"2000", "ts":"123456789000" } ], "msg":"" }',
  },
  { field: 'data[0].accRateLimit', url: URL_, retrieved: READ, quote: 'accRateLimit | String | Current sub-account rate limit per two seconds' },
  {
    field: 'data[0].fillRatio',
    url: URL_,
    retrieved: READ,
    quote:
      'fillRatio | String | Sub account fill ratio during the monitoring period Applicable for users with trading fee level >= VIP 5 and return "" for others For accounts with no trading volume during the monitoring period, return "0". For accounts with trading volume but no order count due to our counting logic, return "9999".',
  },
  {
    field: 'data[0].mainFillRatio',
    url: URL_,
    retrieved: READ,
    quote:
      'mainFillRatio | String | Master account aggregated fill ratio during the monitoring period Applicable for users with trading fee level >= VIP 5 and return "" for others For accounts with no trading volume during the monitoring period, return "0"',
  },
  {
    field: 'data[0].nextAccRateLimit',
    url: URL_,
    retrieved: READ,
    quote:
      'nextAccRateLimit | String | Expected sub-account rate limit (per two seconds) in the next period Applicable for users with trading fee level >= VIP 5 and return "" for others',
  },
  {
    field: 'data[0].ts',
    url: URL_,
    retrieved: READ,
    quote:
      'ts | String | Data update time For users with trading fee level >= VIP 5, the data will be generated at 08:00 am (UTC) For users with trading fee level < VIP 5, return the current timestamp',
  },
];

const FIELDS = ['accRateLimit', 'fillRatio', 'mainFillRatio', 'nextAccRateLimit', 'ts'];

/**
 * OKX's source: `GET /api/v5/trade/account-rate-limit` (signed, 1 per second per User ID), the
 * sub-account's current order limit per 2 s (`accRateLimit`, set by its fill-ratio tier for VIP 5
 * and above). Only `accRateLimit` is applied; `nextAccRateLimit` (the next period's) and the fill
 * ratios are validated and not used.
 */
export const okxSources: readonly LiveLimitSource[] = [
  {
    id: 'account-rate-limit',
    venue: 'okx',
    method: 'GET',
    path: '/api/v5/trade/account-rate-limit',
    auth: 'private',
    documentation,
    parse(body, context): LiveStatement {
      const { source } = context;
      const o = object(source, body, '');
      keys(source, o, '', ['code', 'data'], ['msg']);
      if (o['code'] !== '0') throw new LiveLimitsError('venue_error', source, `code ${shown(o['code'])}: ${shown(o['msg'])}`, 'code');
      if ('msg' in o) string(source, o['msg'], 'msg');
      const data = array(source, o['data'], 'data');
      if (data.length !== 1) throw new LiveLimitsError('malformed', source, `expected one entry, got ${data.length}`, 'data');
      const e = object(source, data[0], 'data[0]');
      keys(source, e, 'data[0]', FIELDS);
      const limit = positiveIntegerString(source, e['accRateLimit'], 'data[0].accRateLimit');
      decimalStringOrEmpty(source, e['fillRatio'], 'data[0].fillRatio');
      decimalStringOrEmpty(source, e['mainFillRatio'], 'data[0].mainFillRatio');
      if (e['nextAccRateLimit'] !== '') positiveIntegerString(source, e['nextAccRateLimit'], 'data[0].nextAccRateLimit');
      nonNegativeIntegerString(source, e['ts'], 'data[0].ts');
      return { limits: [{ bucket: OKX_SUBACCOUNT_BUCKET, windowMs: 2000, limit, field: 'data[0].accRateLimit', statement: JSON.stringify(e) }] };
    },
  },
];
