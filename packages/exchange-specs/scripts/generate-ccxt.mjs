#!/usr/bin/env node
// Generates src/generated/<id>.json from ccxt's per-endpoint costs: one compact file per exchange
// with only the rate-limit facts (see src/ccxt-spec.ts for the format). Every endpoint of ccxt's
// `api` tree is listed under its ccxt section, at the host and path ccxt sends it to (read from the
// exchange's own `sign()`), with the cost its own `calculateRateLimiterCost` charges, modifiers
// included; ccxt endpoints that send the same request share the larger cost.
//
//   pnpm --filter @core/exchange-specs generate:ccxt     # uses the ccxt devDependency (pinned)
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import ccxt from 'ccxt';
import { compact, costOf, costSemantics, maxExpr, simplify } from './ccxt-costs.mjs';
import { CCXT_VERSION, ccxtEndpoints, exchangeInstance } from './ccxt-harness.mjs';

// The package's own version: ccxt 4.5.84's code reports 4.5.83 in `ccxt.version`.
const version = JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('ccxt')), 'utf8')).version;
if (version !== CCXT_VERSION) throw new Error(`ccxt ${version} is installed; the generator reads ccxt ${CCXT_VERSION} (pnpm install)`);
const outDir = new URL('../src/generated/', import.meta.url);
const generated = process.env.GENERATED_DATE ?? new Date().toISOString().slice(0, 10);

const mostCommon = (values) => {
  const counts = new Map();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
};

/** The prefix ccxt puts before its path (`/sapi/v1` + `/` + `bswap/liquidity`), or undefined. */
function prefixOf(e) {
  const tail = `/${e.path.replace(/^\//, '')}`;
  return e.request.path.endsWith(tail) ? e.request.path.slice(0, -tail.length) : undefined;
}

/**
 * A parameter whose value names the ccxt endpoint when several share one URL (RPC-style APIs such
 * as Zaif's and Indodax's `POST /tapi` with `method=getInfo`), or undefined.
 */
function discriminator(members) {
  let common;
  for (const m of members) {
    const fields = { ...m.request.query, ...m.request.body };
    const keys = new Set(Object.keys(fields).filter((k) => String(fields[k]) === m.path));
    common = common === undefined ? keys : new Set([...common].filter((k) => keys.has(k)));
  }
  return common === undefined ? undefined : [...common][0];
}

/** One cost for every ccxt endpoint of a group that sends the same request (method, host, path). */
function mergeGroup(members) {
  const costs = members.map((m) => m.cost);
  if (costs.every((c) => JSON.stringify(c) === JSON.stringify(costs[0]))) return costs[0];
  const key = discriminator(members);
  if (key !== undefined && costs.every((c) => c.kind === 'constant')) {
    const values = {};
    for (const m of members) {
      const v = String({ ...m.request.query, ...m.request.body }[key]);
      values[v] = Math.max(values[v] ?? 0, m.cost.value);
    }
    return { kind: 'lookup', param: key, values, otherwise: Math.max(...Object.values(values)) };
  }
  return simplify(costs.reduce((a, b) => maxExpr(a, b)));
}

function generate(id) {
  const ex = exchangeInstance(ccxt, id, true);
  const rateLimitMs = Number(ex.rateLimit);
  if (!(rateLimitMs > 0)) return { skipped: 'no rateLimit' };
  const semantics = costSemantics(ccxt, ex);
  const all = ccxtEndpoints(ccxt, id);
  const resolved = all.filter((e) => e.request.error === undefined);
  for (const e of resolved) e.cost = costOf(semantics, e.config, `${id} ${e.section} ${e.method} ${e.path}`, ex, e.method);
  const groups = new Map();
  for (const e of resolved) {
    const k = `${e.method} ${e.request.host}${e.request.path}`;
    groups.set(k, [...(groups.get(k) ?? []), e]);
  }
  for (const members of groups.values()) {
    const cost = members.length > 1 ? mergeGroup(members) : members[0].cost;
    const auth = members.some((m) => m.request.auth === 'public') ? 'public' : 'private';
    for (const m of members) {
      m.cost = cost;
      m.auth = auth;
    }
  }
  const hosts = [...new Set(resolved.map((e) => e.request.host))].sort();
  const sections = [];
  for (const section of [...new Set(resolved.map((e) => e.section))]) {
    const members = resolved.filter((e) => e.section === section);
    const host = mostCommon(members.map((e) => e.request.host));
    const prefix = mostCommon(members.map(prefixOf).filter((p) => p !== undefined)) ?? '';
    const auth = mostCommon(members.map((e) => e.auth));
    const endpoints = members.map((e) => {
      const extra = {
        ...(prefixOf(e) === prefix ? {} : { path: e.request.path }),
        ...(e.request.host === host ? {} : { host: hosts.indexOf(e.request.host) }),
        ...(e.auth === auth ? {} : { auth: e.auth }),
      };
      const cost = compact(e.cost);
      return Object.keys(extra).length > 0 ? [e.method, e.path, cost, extra] : cost === 1 ? [e.method, e.path] : [e.method, e.path, cost];
    });
    sections.push({ section, host: hosts.indexOf(host), prefix, auth, endpoints });
  }
  const unresolved = all.filter((e) => e.request.error !== undefined).map((e) => [e.section, e.method, e.path, e.request.error.slice(0, 160)]);
  const head = { id, name: ex.name ?? id, ccxtVersion: version, generated, rateLimitMs, defaultCost: 1, semantics, hosts };
  // One endpoint per line: compact, and diffs stay readable.
  const lines = [`${JSON.stringify(head).slice(0, -1)},"sections":[`];
  sections.forEach((s, i) => {
    const { endpoints, ...rest } = s;
    lines.push(`${JSON.stringify(rest).slice(0, -1)},"endpoints":[`);
    lines.push(endpoints.map((e) => JSON.stringify(e)).join(',\n'));
    lines.push(`]}${i < sections.length - 1 ? ',' : ''}`);
  });
  lines.push(`],"unresolved":[`);
  lines.push(unresolved.map((u) => JSON.stringify(u)).join(',\n'));
  lines.push(']}');
  return { text: `${lines.filter((l) => l !== '').join('\n')}\n`, endpoints: resolved.length, unresolved: unresolved.length };
}

mkdirSync(outDir, { recursive: true });
for (const f of readdirSync(outDir)) if (f.endsWith('.json')) rmSync(new URL(f, outDir));
let count = 0;
let bytes = 0;
let endpoints = 0;
let unresolved = 0;
for (const id of [...ccxt.exchanges].sort()) {
  const r = generate(id);
  if (r.skipped !== undefined) {
    console.warn(`skip ${id}: ${r.skipped}`);
    continue;
  }
  writeFileSync(new URL(`${id}.json`, outDir), r.text);
  count++;
  bytes += r.text.length;
  endpoints += r.endpoints;
  unresolved += r.unresolved;
}
console.log(
  `wrote ${count} exchanges, ${endpoints} endpoints (${unresolved} ccxt cannot send), ${Math.round(bytes / 1024)} KiB, from ccxt ${version} to src/generated/`,
);
