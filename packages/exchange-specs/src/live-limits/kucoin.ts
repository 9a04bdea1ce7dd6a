import { LiveLimitsError } from './live-limits-error.js';
import type { FieldDocumentation, LiveLimitSource, LiveStatement } from './live-limit-source.js';
import { keys, nonNegativeInteger, object, shown } from './strict-json.js';

const READ = '2026-12-01';
const SDK = 'Kucoin/kucoin-universal-sdk @78c90c7 spec/rest/api/openapi-account-account.json';
const API_DOC = 'https://www.kucoin.com/docs-new/api-3470119';

const documentation: readonly FieldDocumentation[] = [
  {
    field: '(request)',
    url: API_DOC,
    retrieved: READ,
    quote: `"/api/v2/user-info": { "summary": "Get Account Summary Info", "x-api-rate-limit-pool": "Management", "x-api-rate-limit-weight": 20 } (${SDK})`,
  },
  {
    field: 'code, data',
    url: API_DOC,
    retrieved: READ,
    quote: `{ "code": "200000", "data": { "level": 0, "subQuantity": 3, "spotSubQuantity": 3, ... } } (${SDK}, x-response-example)`,
  },
  { field: 'data.level', url: API_DOC, retrieved: READ, quote: `"level": { "type": "integer", "description": "User VIP level" } (${SDK})` },
  {
    field: 'data.level (what it sets)',
    url: 'https://www.kucoin.com/docs-new/rate-limit',
    retrieved: READ,
    quote: 'Each API resource pool has a certain quota, the specific amount of which depends on the VIP level:',
  },
];

const provenance = {
  source: 'live-limits:kucoin-user-info',
  confidence: 'documented',
  quote: '"x-api-rate-limit-pool": "Management", "x-api-rate-limit-weight": 20',
} as const;

/**
 * KuCoin's source: `GET /api/v2/user-info` (signed, weight 20 on the Management pool), whose
 * `level` is the account's VIP level; the pools' quotas depend on it. The level maps onto the
 * spec's tier `vip<level>` (a level the spec has no tier for is refused with `unknown_tier`): every
 * bucket listing that tier takes the tier's stored numbers, whatever tier the identity names.
 * The other fields of the account summary are not read.
 */
export const kucoinSources: readonly LiveLimitSource[] = [
  {
    id: 'user-info',
    venue: 'kucoin',
    method: 'GET',
    path: '/api/v2/user-info',
    auth: 'private',
    documentation,
    endpoint: {
      spec: {
        id: 'user-info',
        method: 'GET',
        path: '/api/v2/user-info',
        auth: 'private',
        costs: [{ bucket: 'management', cost: { kind: 'constant', value: 20 } }],
        provenance,
      },
      buckets: [],
      sources: { 'live-limits:kucoin-user-info': { url: API_DOC, retrieved: READ, note: SDK } },
    },
    parse(body, context): LiveStatement {
      const { source } = context;
      const o = object(source, body, '');
      keys(source, o, '', ['code'], ['data', 'msg']);
      if (o['code'] !== '200000') throw new LiveLimitsError('venue_error', source, `code ${shown(o['code'])}: ${shown(o['msg'])}`, 'code');
      const data = object(source, o['data'], 'data');
      const level = nonNegativeInteger(source, data['level'], 'data.level');
      return { limits: [], tier: { tier: `vip${level}`, field: 'data.level', statement: JSON.stringify({ level }) } };
    },
  },
];
