#!/usr/bin/env node
// Generates src/generated/<id>.json from ccxt's per-endpoint costs: one compact file per exchange
// with only the rate-limit facts (see src/ccxt-spec.ts for the format).
//
//   pnpm --filter @core/exchange-specs generate:ccxt            # installs ccxt@CCXT_VERSION in a temp dir
//   CCXT_DIR=/path/with/node_modules/ccxt pnpm --filter @core/exchange-specs generate:ccxt
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const CCXT_VERSION = '4.5.84';
const METHODS = new Set(['get', 'post', 'put', 'delete', 'patch']);
const outDir = new URL('../src/generated/', import.meta.url);

function installCcxt() {
  const dir = mkdtempSync(join(tmpdir(), 'ccxt-gen-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ccxt-gen', private: true, type: 'module' }));
  execFileSync('npm', ['install', `ccxt@${CCXT_VERSION}`, '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: dir, stdio: 'inherit' });
  return dir;
}

function round(x) {
  return Math.round(x * 1e6) / 1e6;
}

function reduceCost(v) {
  if (typeof v === 'number') return round(v);
  if (v === null || typeof v !== 'object') return 1;
  const out = { cost: round(typeof v.cost === 'number' ? v.cost : 1) };
  if (typeof v.noSymbol === 'number') out.noSymbol = round(v.noSymbol);
  if (typeof v.noCoin === 'number') out.noCoin = round(v.noCoin);
  if (Array.isArray(v.byLimit)) out.byLimit = v.byLimit.map(([m, c]) => [m, round(c)]).sort((a, b) => a[0] - b[0]);
  if (v.byType && typeof v.byType === 'object') out.byType = Object.fromEntries(Object.entries(v.byType).map(([k, c]) => [k, round(c)]));
  return Object.keys(out).length === 1 ? out.cost : out;
}

function urlPrefix(api, section) {
  const u = api?.[section] ?? api?.rest;
  if (typeof u !== 'string') return '';
  try {
    const p = new URL(u.replace(/\{[^}]+\}/g, 'host')).pathname.replace(/\/$/, '');
    return p === '/' ? '' : p;
  } catch {
    return '';
  }
}

// ccxt's api tree: sections (possibly nested) down to an HTTP method, whose value maps path -> cost
// (or is a list of paths at the default cost).
function walk(node, names, urls, out) {
  for (const [k, v] of Object.entries(node ?? {})) {
    if (METHODS.has(k.toLowerCase())) {
      const section = names[0] ?? '';
      const prefix = urlPrefix(urls, names.join('')) || urlPrefix(urls, section);
      const auth = names.some((n) => /private/i.test(n)) ? 'private' : 'public';
      const entries = Array.isArray(v) ? v.map((p) => [p, 1]) : Object.entries(v ?? {});
      for (const [path, cost] of entries) {
        const full = `${prefix}/${String(path).replace(/^\//, '')}`.replace(/\/+/g, '/');
        out.push([k.toUpperCase(), full, reduceCost(cost), auth]);
      }
    } else if (v && typeof v === 'object' && !Array.isArray(v)) {
      walk(v, [...names, k], urls, out);
    }
  }
}

const installed = process.env.CCXT_DIR === undefined;
const ccxtDir = process.env.CCXT_DIR ?? installCcxt();
const pkg = JSON.parse(readFileSync(join(ccxtDir, 'node_modules/ccxt/package.json'), 'utf8'));
if (pkg.version !== CCXT_VERSION) console.warn(`warning: ccxt ${pkg.version} found, expected ${CCXT_VERSION}`);
const mod = await import(pathToFileURL(join(ccxtDir, 'node_modules/ccxt/js/ccxt.js')).href);
const ccxt = mod.default ?? mod;
const generated = new Date().toISOString().slice(0, 10);

mkdirSync(outDir, { recursive: true });
for (const f of readdirSync(outDir)) if (f.endsWith('.json')) rmSync(new URL(f, outDir));

let count = 0;
let bytes = 0;
for (const id of [...ccxt.exchanges].sort()) {
  let d;
  try {
    d = new ccxt[id]().describe();
  } catch (e) {
    console.warn(`skip ${id}: ${e.message}`);
    continue;
  }
  const rateLimitMs = Number(d.rateLimit);
  if (!(rateLimitMs > 0)) {
    console.warn(`skip ${id}: no rateLimit`);
    continue;
  }
  const all = [];
  walk(d.api, [], d.urls?.api, all);
  const seen = new Set();
  const endpoints = [];
  for (const e of all) {
    const k = `${e[0]} ${e[1]}`;
    if (seen.has(k)) continue;
    seen.add(k);
    if (e[2] !== 1) endpoints.push(e);
  }
  const file = { id, name: d.name ?? id, ccxtVersion: pkg.version, generated, rateLimitMs: round(rateLimitMs), defaultCost: 1, endpoints };
  // One endpoint per line: compact, and diffs stay readable.
  const text = `{"id":${JSON.stringify(id)},"name":${JSON.stringify(file.name)},"ccxtVersion":${JSON.stringify(file.ccxtVersion)},"generated":${JSON.stringify(generated)},"rateLimitMs":${file.rateLimitMs},"defaultCost":1,"endpoints":[\n${endpoints.map((e) => JSON.stringify(e)).join(',\n')}\n]}\n`;
  writeFileSync(new URL(`${id}.json`, outDir), text);
  count++;
  bytes += text.length;
}
if (installed) rmSync(ccxtDir, { recursive: true, force: true });
console.log(`wrote ${count} exchanges (${Math.round(bytes / 1024)} KiB) from ccxt ${pkg.version} to src/generated/`);
