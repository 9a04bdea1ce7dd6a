// Extracts the per-endpoint weights of Binance's official Python connector (binance/binance-connector-python,
// generated from Binance's endpoint pages) for the five families the hand-authored Binance specs price:
// every `rest_api/api/*.py` docstring's `METHOD /path` line and its `Weight` section, verbatim, with the
// weights read from it where the text has one of the forms below. Writes test/fixtures/binance-connector-weights.json,
// which test/binance-connector-weights.test.ts compares with the specs.
//
//   node scripts/binance-connector-weights.mjs <git dir of binance-connector-python> [commit] [YYYY-MM-DD read]
//
// The git directory is read with `git show` (a bare mirror is enough); nothing is fetched.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const OUT = new URL('../test/fixtures/binance-connector-weights.json', import.meta.url);
const REPOSITORY = 'https://github.com/binance/binance-connector-python';

/** The path prefix of each family, and the spec that prices it. */
const FAMILIES = [
  ['/api/v3/', 'binance-spot'],
  ['/sapi/', 'binance-sapi'],
  ['/fapi/', 'binance-usdm'],
  ['/dapi/', 'binance-coinm'],
  ['/eapi/', 'binance-options'],
];

/** The line that ends a docstring's Weight section. */
const SECTION_END = /^\s*(Security Type|Notes?:|Args:|Returns:|Raises:|Response:)/;
const ENDPOINT_LINE = /^\s*(GET|POST|PUT|DELETE|PATCH) (\/\S+)\s*$/;

const git = (dir, ...args) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

/** The scope a weight text names: `UID` when it says so, the IP otherwise (Binance's default for a weight). */
const scopeOf = (text) => (/\(UID\)|UID\)/.test(text) && !/\(IP\)/.test(text) ? 'uid' : 'ip');

const present = (param) => ({ [param]: 'present' });
const absent = (param) => ({ [param]: 'absent' });

/**
 * Texts of another form, read by hand: the verbatim text (whitespace collapsed) and the cases it states.
 * The generator refuses a text that differs from the one read, so a changed page is read again.
 */
const READ_BY_HAND = {
  'GET /api/v3/executionRules': {
    text: 'Weight: Parameter | Weight --- | --- `symbol` | 2 `symbols` | 2 for each `symbol`, capped at a max of 40 `symbolStatus` | 40 None | 40',
    cases: [
      { when: present('symbol'), value: 2 },
      { when: { symbols: 3 }, value: 6 },
      { when: { symbols: 30 }, value: 40 },
      { when: present('symbolStatus'), value: 40 },
      { when: absent('symbol'), value: 40 },
    ],
  },
  'GET /api/v3/myPreventedMatches': {
    text: 'Weight: Case | Weight ---- | ----- If `symbol` is invalid | 2 Querying by `preventedMatchId` | 2 Querying by `orderId` | 20',
    cases: [
      { when: present('preventedMatchId'), value: 2 },
      { when: present('orderId'), value: 20 },
    ],
  },
  'GET /api/v3/ticker': {
    text: 'Weight: 4 for each requested symbol regardless of windowSize. The weight for this request will cap at 200 once the number of `symbols` in the request is more than 50.',
    cases: [
      { when: present('symbol'), value: 4 },
      { when: { symbols: 3 }, value: 12 },
      { when: { symbols: 60 }, value: 200 },
    ],
  },
  'GET /api/v3/ticker/tradingDay': {
    text: 'Weight: 4 for each requested symbol. The weight for this request will cap at 200 once the number of symbols in the request is more than 50.',
    cases: [
      { when: present('symbol'), value: 4 },
      { when: { symbols: 3 }, value: 12 },
      { when: { symbols: 60 }, value: 200 },
    ],
  },
  'GET /api/v3/ticker/24hr': {
    text: 'Weight: <table> <thead> <tr> <th>Parameter</th> <th>Symbols Provided</th> <th>Weight</th> </tr> </thead> <tbody> <tr> <td rowspan="2">symbol</td> <td>1</td> <td>2</td> </tr> <tr> <td>symbol parameter is omitted</td> <td>80</td> </tr> <tr> <td rowspan="4">symbols</td> <td>1-20</td> <td>2</td> </tr> <tr> <td>21-100</td> <td>40</td> </tr> <tr> <td>101 or more</td> <td>80</td> </tr> <tr> <td>symbols parameter is omitted</td> <td>80</td> </tr> </tbody> </table>',
    cases: [
      { when: present('symbol'), value: 2 },
      { when: absent('symbol'), value: 80 },
      { when: { symbols: 20 }, value: 2 },
      { when: { symbols: 100 }, value: 40 },
      { when: { symbols: 101 }, value: 80 },
    ],
  },
  'GET /api/v3/ticker/price': {
    text: 'Weight: |Parameter|Symbols Provided|Weight| |---|---|---| |symbol| 1 |2| | |omitted| 4| |symbols| Any |4|',
    cases: [
      { when: present('symbol'), value: 2 },
      { when: absent('symbol'), value: 4 },
      { when: { symbols: 3 }, value: 4 },
    ],
  },
  'GET /api/v3/ticker/bookTicker': {
    text: 'Weight: |Parameter|Symbols Provided|Weight| |---|---|---| |symbol| 1 |2| | |omitted| 4| |symbols| Any |4|',
    cases: [
      { when: present('symbol'), value: 2 },
      { when: absent('symbol'), value: 4 },
      { when: { symbols: 3 }, value: 4 },
    ],
  },
  'GET /dapi/v1/allOrders': {
    text: 'Weight: **20** with symbol, **40** with pair (after CM migration: **5** flat)',
    cases: [
      { when: present('symbol'), value: 20 },
      { when: present('pair'), value: 40 },
    ],
  },
  'GET /dapi/v1/userTrades': {
    text: 'Weight: **20** with symbol，**40** with pair (after CM migration: **5** flat)',
    cases: [
      { when: present('symbol'), value: 20 },
      { when: present('pair'), value: 40 },
    ],
  },
  'GET /dapi/v1/forceOrders': { text: 'Weight: **20** (after CM migration: **20** with symbol / **50** without symbol)', cases: [{ value: 20 }] },
  'GET /dapi/v2/leverageBracket': { text: 'Weight: 1 (after CM migration: 1 with `symbol` / 2 without `symbol`)', cases: [{ value: 1 }] },
  'POST /sapi/v1/sub-account/universalTransfer': {
    text: 'Weight(IP): 1 Weight(UID): 360',
    cases: [
      { scope: 'ip', value: 1 },
      { scope: 'uid', value: 360 },
    ],
  },
  'GET /fapi/v1/fundingRate': { text: 'Weight: share 500/5min/IP rate limit with GET /fapi/v1/fundingInfo', cases: [] },
  'GET /fapi/v1/fundingInfo': { text: 'Weight: **0** share 500/5min/IP rate limit with `GET /fapi/v1/fundingRate`', cases: [{ value: 0 }] },
};

for (const sideEffect of ['/sapi/v1/margin/order', '/sapi/v1/margin/order/oco', '/sapi/v1/margin/order/oto', '/sapi/v1/margin/order/otoco']) {
  READ_BY_HAND[`POST ${sideEffect}`] = {
    text: 'Weight: 6(UID) or 1500(UID) when sideEffectType is MARGIN_BUY or AUTO_BORROW_REPAY',
    cases: [{ value: 6 }, { when: { sideEffectType: 'MARGIN_BUY' }, value: 1500 }, { when: { sideEffectType: 'AUTO_BORROW_REPAY' }, value: 1500 }],
  };
}

/** A limit table's row heading as the largest limit of the row: `5, 10` (each), `1-100`, `[1,100)`, `[500, 1000]`, `> 1000`. */
function limitsOf(heading) {
  const h = heading.trim();
  const range = /^\[(\d+),\s*(\d+)([)\]])$/.exec(h);
  if (range) return [Number(range[2]) - (range[3] === ')' ? 1 : 0)];
  const above = /^>\s*(\d+)$/.exec(h);
  if (above) return [Number(above[1]) + 1];
  const dash = /^(\d+)\s*-\s*(\d+)$/.exec(h);
  if (dash) return [Number(dash[2])];
  return h.split(',').map((x) => Number(x.trim()));
}

const LIMIT_ROW = /(\[\d+,\s*\d+[)\]]|>\s*\d+|\d+\s*-\s*\d+|(?:\d+\s*,\s*)*\d+)\s*\|\s*(\d+)/g;
const WITH_PARAM =
  /(\d+)\s*(?:\((?:IP|UID)\))?;?\s*(?:for a single `?(symbol)`?|with `?(symbol)`?|when a single is specified|when (coin) is specified|if `(asset)` is sent)/;
const WITHOUT_PARAM =
  /(\d+)\s*(?:\((?:IP|UID)\))?\s*(?:when the `?(\w+)`? parameter is omitted|without `?(symbol)`?|when `(symbol)` is omitted|if `(asset)` is not sent|for (?:mutltiple|multiple) (symbol)s)/;

/**
 * The weights a text states, as cases a request is priced by (`{ when?, scope?, value }`): one case for a
 * single weight (`Weight(IP): 5`, `Weight(UID): 3000, 1 times/min per IP`, an order's `0 on IP rate limit`),
 * two for a weight by a parameter's presence (`1 for a single symbol; 40 when the symbol parameter is
 * omitted`: `{ symbol: 'present' }`, `{ symbol: 'absent' }`), one per row of a limit table (the row's
 * largest limit), and the cases of {@link READ_BY_HAND}. Any other text has none (`[]`): the test lists them.
 */
export function readWeights(key, text) {
  const hand = READ_BY_HAND[key];
  if (hand !== undefined) {
    if (hand.text !== text) throw new Error(`${key}: the text read by hand was\n  ${hand.text}\nnow\n  ${text}\nread it again`);
    return hand.cases;
  }
  const t = text.replace(/\*\*/g, '');
  const onIp = /(\d+) on IP rate limit/.exec(t);
  if (onIp) return [{ value: Number(onIp[1]) }];
  const withParam = WITH_PARAM.exec(t);
  const withoutParam = WITHOUT_PARAM.exec(t);
  if (withParam && withoutParam) {
    const param = withParam.slice(2).find((x) => x !== undefined) ?? 'symbol';
    return [
      { when: present(param), value: Number(withParam[1]) },
      { when: absent(param), value: Number(withoutParam[1]) },
    ];
  }
  const withoutRow = /\|Without `?(\w+)`?\|\s*(\d+)\|/.exec(t);
  const withRow = /\|With `?(\w+)`?\|\s*(\d+)\|/.exec(t);
  if (withoutRow && withRow && withoutRow[1] === withRow[1]) {
    return [
      { when: absent(withoutRow[1]), value: Number(withoutRow[2]) },
      { when: present(withRow[1]), value: Number(withRow[2]) },
    ];
  }
  if (/limit/i.test(t) && /\|/.test(t)) {
    const body = t.replace(/^.*?(?:-{3,}\s*\|\s*-{3,}\s*\|?)/, '');
    const rows = [...body.matchAll(LIMIT_ROW)].flatMap((m) => limitsOf(m[1]).map((limit) => ({ when: { limit }, value: Number(m[2]) })));
    if (rows.length > 0) return rows;
  }
  const single =
    /^Weight(?:\((?:IP|UID)\))?:\s*(\d+)\s*(?:\((?:IP|UID)\))?(?:$|\s*\(\d+ requests per second\)$|,\s*\d+ times\/min per IP$|\s+Unfilled Order Count: \d+$|\s+\d+\/hour, \d+\/day$)/.exec(
      t,
    );
  if (single) return [{ value: Number(single[1]) }];
  return [];
}

function extract(dir, commit) {
  const files = git(dir, 'ls-tree', '-r', '--name-only', commit, 'clients')
    .split('\n')
    .filter((f) => /^clients\/[^/]+\/src\/[^/]+\/rest_api\/api\/[^/]+\.py$/.test(f));
  const byKey = new Map();
  for (const file of files) {
    const lines = git(dir, 'show', `${commit}:${file}`).split('\n');
    for (let i = 0; i < lines.length; i++) {
      const m = ENDPOINT_LINE.exec(lines[i]);
      if (!m) continue;
      const [, method, path] = m;
      const family = FAMILIES.find(([prefix]) => path.startsWith(prefix))?.[1];
      if (family === undefined) continue;
      let j = i + 1;
      while (j < lines.length && !/^\s*(Request )?Weight/.test(lines[j]) && !/"""/.test(lines[j])) j++;
      if (j >= lines.length || /"""/.test(lines[j])) continue;
      const section = [];
      for (let k = j; k < lines.length && !SECTION_END.test(lines[k]) && !/"""/.test(lines[k]); k++) section.push(lines[k].trim());
      const text = section.join(' ').replace(/\s+/g, ' ').trim();
      const key = `${method} ${path}`;
      const entry = { family, method, path, file, text, scope: scopeOf(text), cases: readWeights(key, text) };
      const seen = byKey.get(key);
      if (seen === undefined) byKey.set(key, entry);
      else if (seen.text !== text) seen.alsoStated = [...(seen.alsoStated ?? []), { file, text }];
    }
  }
  return [...byKey.values()].sort((a, b) =>
    a.family === b.family ? a.path.localeCompare(b.path) || a.method.localeCompare(b.method) : a.family.localeCompare(b.family),
  );
}

const [dir, commitArg = 'HEAD', read = new Date().toISOString().slice(0, 10)] = process.argv.slice(2);
if (dir === undefined) {
  console.error('usage: node scripts/binance-connector-weights.mjs <git dir of binance-connector-python> [commit] [YYYY-MM-DD]');
  process.exit(2);
}
const commit = git(dir, 'rev-parse', commitArg).trim();
const committed = git(dir, 'show', '-s', '--format=%cs', commit).trim();
const endpoints = extract(dir, commit);
const fixture = {
  source: REPOSITORY,
  commit,
  committed,
  read,
  note: "Weights as the endpoint docstrings of Binance's official Python connector state them (generated from Binance's endpoint pages): `text` is the docstring's Weight section verbatim (whitespace collapsed), `cases` the weights read from it (none where the text has another form). Regenerate with scripts/binance-connector-weights.mjs.",
  endpoints,
};
writeFileSync(OUT, `${JSON.stringify(fixture, null, 2)}\n`);
console.log(
  `${endpoints.length} endpoints (${endpoints.filter((e) => e.cases.length === 0).length} without a machine-readable weight) from ${commit.slice(0, 7)} (${committed})`,
);
