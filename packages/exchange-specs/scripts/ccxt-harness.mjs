// Reads ccxt's own description of an exchange's REST endpoints, without network: every endpoint of
// the exchange's `api` tree with ccxt's cost config, and the request ccxt sends for it (host, path,
// whether ccxt signs it), found by calling the exchange's own `sign()` with placeholder credentials
// and a frozen clock. Shared by the generator (scripts/generate-ccxt.mjs) and the test that checks
// the generated specs never charge less than ccxt (test/ccxt-never-undercount.test.ts).

/** The ccxt version the generated specs come from (the exact devDependency of this package). */
export const CCXT_VERSION = '4.5.84';

const METHODS = /^(?:get|post|put|delete|head|patch)$/i;
const FROZEN_MS = 1_800_000_000_000;

function endpoint(sections, method, path, config) {
  return { api: sections.length > 1 ? sections : sections[0], section: sections.join('.'), method: method.toUpperCase(), path, config };
}

/**
 * Every endpoint of a ccxt `api` tree, read as ccxt's `defineRestApi` reads it: sections down to an
 * HTTP method whose value maps a path to a cost config (a number `n` is `{ cost: n }`), or lists
 * paths at the default cost (`{}`). `api` is what ccxt passes to `sign` and
 * `calculateRateLimiterCost`: the section's name, or the list of names of nested sections.
 */
export function walkApi(tree, sections = [], out = []) {
  for (const [key, value] of Object.entries(tree ?? {})) {
    if (Array.isArray(value)) {
      for (const p of value) out.push(endpoint(sections, key, String(p).trim(), {}));
    } else if (METHODS.test(key) && value !== null && typeof value === 'object') {
      for (const [p, config] of Object.entries(value)) {
        out.push(endpoint(sections, key, p.trim(), typeof config === 'number' ? { cost: config } : config));
      }
    } else if (value !== null && typeof value === 'object') {
      walkApi(value, [...sections, key], out);
    }
  }
  return out;
}

/** The key of a ccxt endpoint: its section names, method and ccxt path. */
export function ccxtKey(e) {
  return `${e.section} ${e.method} ${e.path}`;
}

/**
 * Placeholder credentials in the formats the exchanges' signing code decodes (base64, base58 and
 * hex keys, a Gemini account key).
 */
function credentials(ccxt, id) {
  const bytes32 = new Uint8Array(32).fill(17);
  const base58 = new ccxt.Exchange().binaryToBase58(bytes32);
  return {
    apiKey: id === 'gemini' ? 'account-placeholder' : 'placeholderkey',
    // LBank signs with RSA when the secret is longer than 32 characters, with HMAC otherwise.
    secret: id === 'modetrade' || id === 'woofipro' ? `ed25519:${base58}` : id === 'lbank' ? 'placeholdersecret' : Buffer.from(bytes32).toString('base64'),
    uid: '1',
    password: 'placeholder',
    login: 'placeholder',
    twofa: 'JBSWY3DPEHPK3PXP',
    privateKey: id === 'revolutx' ? Buffer.from(bytes32).toString('hex') : `0x${'11'.repeat(32)}`,
    walletAddress: `0x${'22'.repeat(20)}`,
    token: 'placeholder',
    accountId: '1',
  };
}

/**
 * An exchange instance whose clock, nonces and ids are frozen, with placeholder credentials when
 * `signed`, and the sessions some exchanges obtain from the network at sign-in set to placeholders
 * (GRVT's cookie, Paradex's token, Lighter's auth token).
 */
export function exchangeInstance(ccxt, id, signed) {
  const ex = new ccxt[id](signed ? credentials(ccxt, id) : {});
  ex.milliseconds = () => FROZEN_MS;
  ex.seconds = () => FROZEN_MS / 1000;
  ex.microseconds = () => FROZEN_MS * 1000;
  ex.uuid = () => '00000000-0000-4000-8000-000000000000';
  ex.uuid22 = () => '0000000000000000000000';
  ex.uuid16 = () => '0000000000000000';
  if (signed) {
    ex.options.AuthAccountId = '1';
    ex.options.AuthCookieValue = 'placeholder=1';
    ex.options.authToken = 'placeholder';
    if (typeof ex.createAuth === 'function') ex.createAuth = () => 'placeholder';
  }
  return ex;
}

/** Parameters some endpoints' signing reads (Paradex's auth and onboarding calls). */
const SIGNING_PARAMS = { account: '1', signature: '1', timestamp: 1, expiration: 1, public_key: '1' };

const marker = (i) => `zqp${i}qz`;

/** The `{name}` parameters of a ccxt path, each with a placeholder value that survives signing. */
export function pathPlaceholders(path) {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  return Object.fromEntries(names.map((n, i) => [n, marker(i)]));
}

function sign(ex, e, params) {
  // sign() may modify params; give it a copy.
  return ex.sign(e.path, e.api, e.method, Array.isArray(params) ? params.map((p) => ({ ...p })) : { ...params });
}

function signedParts(r) {
  const u = new URL(r.url);
  let body = r.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      body = Object.fromEntries(new URLSearchParams(body));
    }
  }
  return { url: u, body: body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {} };
}

/**
 * The request ccxt sends for an endpoint: `{ host, path, query, body, auth }`, `path` a template
 * with the endpoint's `{name}` parameters, `auth` `private` when ccxt signs it (`sign()` without
 * credentials throws or sends something else), or `{ error }` when ccxt itself cannot build it
 * (a section without a URL, for instance).
 */
export function ccxtRequest(signedEx, anonymousEx, e) {
  const placeholders = pathPlaceholders(e.path);
  let r;
  let params = placeholders;
  try {
    r = sign(signedEx, e, params);
  } catch (first) {
    // Some endpoints need more to sign: Paradex's auth parameters, or a list of orders whose first
    // item carries the path parameters (Gate's batch cancel).
    for (const retry of [{ ...placeholders, ...SIGNING_PARAMS }, [placeholders]]) {
      try {
        r = sign(signedEx, e, retry);
        params = retry;
        break;
      } catch {
        // next
      }
    }
    if (r === undefined) return { error: String(first?.message ?? first) };
  }
  let parts;
  try {
    parts = signedParts(r);
  } catch (err) {
    return { error: `ccxt builds no absolute URL: ${JSON.stringify(String(r.url).split('?')[0])} (${err.message})` };
  }
  let path = decodeURIComponent(parts.url.pathname);
  const names = Object.keys(placeholders);
  names.forEach((name, i) => {
    path = path.replace(new RegExp(marker(i), 'i'), `{${name}}`);
  });
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  let auth = 'public';
  try {
    const anonymous = sign(anonymousEx, e, params);
    if (JSON.stringify([anonymous.url, anonymous.method, anonymous.body, anonymous.headers]) !== JSON.stringify([r.url, r.method, r.body, r.headers]))
      auth = 'private';
  } catch {
    auth = 'private';
  }
  return { host: parts.url.host.toLowerCase(), path, query: Object.fromEntries(parts.url.searchParams), body: parts.body, auth };
}

/** Every endpoint of a ccxt exchange with the request ccxt sends for it (see {@link ccxtRequest}). */
export function ccxtEndpoints(ccxt, id) {
  const signedEx = exchangeInstance(ccxt, id, true);
  const anonymousEx = exchangeInstance(ccxt, id, false);
  return walkApi(signedEx.api).map((e) => ({ ...e, request: ccxtRequest(signedEx, anonymousEx, e) }));
}
