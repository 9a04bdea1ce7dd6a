import { bucketForTier } from '../tier.js';
import { LiveLimitsError } from './live-limits-error.js';
import type { FieldDocumentation, LiveLimitSource, LiveStatement, StatedLimit } from './live-limit-source.js';
import { array, at, keys, object, oneOf, positiveInteger, shown, string } from './strict-json.js';

const READ = '2026-12-01';
const DOCS = 'https://bybit-exchange.github.io/docs/v5';
const REPO = 'bybit-exchange/docs @072c197';

const BIZ_TYPES = ['SPOT', 'DERIVATIVES', 'OPTIONS'] as const;
type BizType = (typeof BIZ_TYPES)[number];

/**
 * The buckets of the `bybit` spec that the account's per-UID rate (`/v5/apilimit/query`, per
 * business type) governs: the trade endpoints Bybit's rate-limit table marks upgradable whose
 * documented default is the UID-level default (10/s futures, 10/s options, 20/s spot). Bybit's
 * page does not list the endpoints the rate applies to; `/v5/order/amend` (spot 10/s) and
 * `/v5/order/cancel-all` (options 1/s) have other defaults, so they keep their stored numbers.
 */
export const BYBIT_RATE_BUCKETS: readonly string[] = ['order/create', 'order/cancel', 'order/create-batch', 'order/amend-batch', 'order/cancel-batch'];

const documentation: readonly FieldDocumentation[] = [
  {
    field: '(request)',
    url: `${DOCS}/rate-limit/rules-for-pros/apilimit-query`,
    retrieved: READ,
    quote:
      "API rate limit: 50 req per second * A master account can query its own and its subaccounts' API rate limit. * A subaccount can only query its own API rate limit.",
  },
  {
    field: 'uids (query)',
    url: `${DOCS}/rate-limit/rules-for-pros/apilimit-query`,
    retrieved: READ,
    quote: '|uids |**true**|string|Multiple UIDs separated by commas|',
  },
  {
    field: 'retCode, retMsg, result',
    url: `${DOCS}/rate-limit/rules-for-pros/apilimit-query`,
    retrieved: READ,
    quote:
      '{ "retCode": 0, "retMsg": "success", "result": { "list": [ { "uids": "290118", "bizType": "SPOT", "rate": 600 }, { "uids": "290118", "bizType": "DERIVATIVES", "rate": 400 } ] }, "retExtInfo": {}, "time": 1754894341984 }',
  },
  {
    field: 'result.list[].uids',
    url: `${DOCS}/rate-limit/rules-for-pros/apilimit-query`,
    retrieved: READ,
    quote: '|> uids |string|Multiple UIDs separated by commas|',
  },
  {
    field: 'result.list[].bizType',
    url: `${DOCS}/rate-limit/rules-for-pros/apilimit-query`,
    retrieved: READ,
    quote: '|> [bizType](/docs/v5/enum#biztype) |string|Business type |',
  },
  { field: 'result.list[].bizType', url: `${DOCS}/enum#biztype`, retrieved: READ, quote: '### bizType * `SPOT` * `DERIVATIVES` * `OPTIONS`' },
  {
    field: 'result.list[].rate',
    url: `${DOCS}/rate-limit/rules-for-pros/apilimit-query`,
    retrieved: READ,
    quote: '|> rate |integer|API rate limit per second |',
  },
  {
    field: 'result.list[].rate (window)',
    url: `${DOCS}/rate-limit`,
    retrieved: READ,
    quote: 'The API rate limit is based on the **rolling time window per second and UID**. In other words, it is per second per UID.',
  },
  {
    field: 'result.list[].rate (which endpoints)',
    url: `${DOCS}/rate-limit/rules-for-pros/introduction`,
    retrieved: READ,
    quote: 'UID-level rate limit Maximum limit for a single UID. | Level\\Product | Futures | Option | Spot | | Default | 10/s | 10/s | 20/s |',
  },
  {
    field: 'result.list[].rate (which endpoints)',
    url: `${DOCS}/rate-limit`,
    retrieved: READ,
    quote:
      '/v5/order/create | 10/s (inverse, linear) | 10/s (option) | 20/s (spot) | upgradable Y; /v5/order/cancel 10/s | 10/s | 20/s | Y; /v5/order/create-batch, /v5/order/amend-batch, /v5/order/cancel-batch 10/s | 10/s | 20/s | Y; /v5/order/amend 10/s | 10/s | 10/s | Y; /v5/order/cancel-all 10/s | 1/s | 20/s | Y',
  },
];

const provenance = { source: 'live-limits:bybit-apilimit', confidence: 'documented', quote: 'API rate limit: 50 req per second' } as const;

/**
 * Bybit's source: `GET /v5/apilimit/query?uids=<the account's uid>` (signed), the account's API
 * rate per second per business type (SPOT, DERIVATIVES, OPTIONS). The `bybit` spec keeps one limit
 * per bucket for every category (the smallest), so a bucket of {@link BYBIT_RATE_BUCKETS} takes the
 * smallest rate of the three business types; a type the answer does not list counts at the bucket's
 * stored limit (so an answer without OPTIONS can lower the limits but not raise them above the
 * stored options number).
 */
export const bybitSources: readonly LiveLimitSource[] = [
  {
    id: 'apilimit/query',
    venue: 'bybit',
    method: 'GET',
    path: '/v5/apilimit/query',
    auth: 'private',
    query: (identity) => (identity.uid === undefined ? { missing: 'identity.uid' } : { uids: identity.uid }),
    documentation,
    endpoint: {
      spec: {
        id: 'apilimit-query',
        method: 'GET',
        path: '/v5/apilimit/query',
        auth: 'private',
        costs: [{ bucket: 'apilimit/query', cost: { kind: 'constant', value: 1 } }],
        provenance,
      },
      buckets: [
        {
          id: 'apilimit/query',
          scope: 'uid',
          algorithm: 'sliding-window',
          limit: 50,
          windowMs: 1000,
          provenance,
          description: 'GET /v5/apilimit/query per UID, rolling 1 s',
        },
      ],
      sources: {
        'live-limits:bybit-apilimit': {
          url: `${DOCS}/rate-limit/rules-for-pros/apilimit-query`,
          retrieved: READ,
          note: `${REPO} docs/v5/rate-limit/rules-for-pros/apilimit-query.mdx`,
        },
      },
    },
    parse(body, context): LiveStatement {
      const { source, spec, identity } = context;
      const o = object(source, body, '');
      keys(source, o, '', ['retCode', 'retMsg', 'result'], ['retExtInfo', 'time']);
      if (o['retCode'] !== 0) throw new LiveLimitsError('venue_error', source, `retCode ${shown(o['retCode'])}: ${shown(o['retMsg'])}`, 'retCode');
      const result = object(source, o['result'], 'result');
      keys(source, result, 'result', ['list']);
      const list = array(source, result['list'], 'result.list');
      const uid = identity.uid ?? '';
      const rates = new Map<BizType, { rate: number; field: string }>();
      list.forEach((raw, i) => {
        const field = at('result.list', i);
        const e = object(source, raw, field);
        keys(source, e, field, ['uids', 'bizType', 'rate']);
        const uids = string(source, e['uids'], at(field, 'uids')).split(',');
        if (!uids.includes(uid))
          throw new LiveLimitsError('malformed', source, `the entry is for uids ${shown(e['uids'])}, not the account asked for`, at(field, 'uids'));
        const bizType = oneOf(source, e['bizType'], at(field, 'bizType'), BIZ_TYPES);
        const rate = positiveInteger(source, e['rate'], at(field, 'rate'));
        const prev = rates.get(bizType);
        if (prev !== undefined && prev.rate !== rate)
          throw new LiveLimitsError('conflicting_limits', source, `${bizType} is stated as ${prev.rate} (${prev.field}) and ${rate}`, field);
        rates.set(bizType, { rate, field });
      });
      if (rates.size === 0) return { limits: [] };
      const statement = JSON.stringify(Object.fromEntries([...rates].map(([k, v]) => [k, v.rate])));
      const limits: StatedLimit[] = [];
      for (const id of BYBIT_RATE_BUCKETS) {
        const stored = spec.buckets.find((b) => b.id === id);
        if (stored === undefined || stored.algorithm === 'token-bucket' || stored.windowMs !== 1000) {
          throw new LiveLimitsError('spec_mismatch', source, `${spec.id} has no per-second window bucket "${id}" for the account's rate`, 'result.list');
        }
        const applied = bucketForTier(stored, identity.tier ?? spec.defaultTier);
        const storedLimit = applied.algorithm === 'token-bucket' ? stored.limit : applied.limit;
        const limit = Math.min(...BIZ_TYPES.map((t) => rates.get(t)?.rate ?? storedLimit));
        limits.push({ bucket: id, windowMs: 1000, limit, field: 'result.list', statement });
      }
      return { limits };
    },
  },
];
