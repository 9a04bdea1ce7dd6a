#!/usr/bin/env node
// The layout check: every package imports only what the layout allows.
//   node scripts/check-layout.mjs [rootDir]   (rootDir: the repository root, by default this script's parent)
// Prints one line per violation, `path:line: <pkg> may not import <spec> (<reason>)`, and exits 1 on any;
// otherwise prints `layout: N files in M packages, 0 violations`. No dependencies: node 20 alone.
//
// What it reads: each packages/*/package.json (name, dependencies, devDependencies, peerDependencies,
// exports), and every .ts/.mts/.cts/.tsx/.js/.mjs/.cjs/.jsx file of each package outside node_modules,
// dist, coverage, demo-out and dot-folders: `import … from`, `import '…'`, `export … from`, `import(…)`
// and `require(…)` with a literal specifier (comments and strings are skipped, so an example in a TSDoc
// comment is not an import).
//
// The rules:
// - src/ and bin/ (what runs in a host) may import only the @core packages LAYOUT lists for the package;
//   a package not listed may import any @core package it declares. Tests, benches and scripts may import
//   any @core package the package declares (the conformance suite, a limiter for a replay, …).
// - every @core import is declared in the package's package.json: in dependencies or peerDependencies for
//   src/ and bin/ (they ship), in any of dependencies, devDependencies, peerDependencies elsewhere;
// - never another package's internals: `@core/x/<subpath>` only where x's `exports` declares the subpath,
//   and never a relative path that leaves the package's own folder;
// - a package with `runtimeDependencies: false` declares no dependencies or peerDependencies at all and its
//   src/ imports nothing but its own files.

import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { importsOf } from './read-imports.mjs';

export { importsOf, tokenize } from './read-imports.mjs';

/**
 * The allowed graph: package → the @core packages its src/ may import, and why. Packages not listed may
 * import any @core package they declare, never another's internals.
 */
export const LAYOUT = {
  '@core/rate-limit-contract': {
    imports: [],
    runtimeDependencies: false,
    why: 'the contract is types and rule ids only: it imports nothing and depends on nothing',
  },
  '@core/rate-limit-kit': {
    imports: ['@core/rate-limit-contract'],
    why: 'the kit is built on the contract alone',
  },
  '@core/default-rate-limiter': {
    imports: ['@core/rate-limit-contract', '@core/rate-limit-kit'],
    why: 'a limiter is the kit over its own store; it never imports another limiter',
  },
  '@core/redis-rate-limiter': {
    imports: ['@core/rate-limit-contract', '@core/rate-limit-kit'],
    why: 'a limiter is the kit over its own store; it never imports another limiter',
  },
  '@core/exchange-specs': {
    imports: ['@core/rate-limit-contract'],
    why: 'venue specs are data over the contract; they never import a limiter',
  },
};

/** Folders whose code runs in a host: the LAYOUT table and the shipped-dependency rule apply there. */
const RUNTIME_DIRS = new Set(['src', 'bin']);
const SOURCE_EXT = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', 'demo-out']);
const SCOPE = '@core/';

// ---- the workspace ----------------------------------------------------------------------------------

const toPosix = (p) => p.split(sep).join('/');

function readPackages(rootDir) {
  const dir = join(rootDir, 'packages');
  const packages = [];
  for (const name of readdirSync(dir).sort()) {
    const pkgDir = join(dir, name);
    const file = join(pkgDir, 'package.json');
    let text;
    try {
      if (!statSync(pkgDir).isDirectory()) continue;
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const json = JSON.parse(text);
    packages.push({ dir: pkgDir, file, text, json, name: json.name });
  }
  return packages;
}

function sourceFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (entry.isFile() && SOURCE_EXT.test(entry.name)) out.push(path);
  }
  return out;
}

/** `@core/x/a/b` → `['@core/x', './a/b']`; `@core/x` → `['@core/x', '.']`. */
function splitSpecifier(spec) {
  const parts = spec.split('/');
  const name = parts.slice(0, 2).join('/');
  const rest = parts.slice(2).join('/');
  return [name, rest === '' ? '.' : `./${rest}`];
}

/** Whether a package's `exports` declares a subpath (`.` or `./x`, patterns with one `*` included). */
export function exportsDeclares(exportsField, subpath) {
  if (exportsField === undefined || exportsField === null) return subpath === '.'; // no map: only the main entry is public here
  if (typeof exportsField === 'string' || Array.isArray(exportsField)) return subpath === '.';
  const keys = Object.keys(exportsField);
  if (!keys.some((k) => k.startsWith('.'))) return subpath === '.'; // conditions only: the main entry
  for (const key of keys) {
    if (exportsField[key] === null) continue;
    if (key === subpath) return true;
    const star = key.indexOf('*');
    if (star >= 0 && subpath.startsWith(key.slice(0, star)) && subpath.endsWith(key.slice(star + 1)) && subpath.length >= key.length - 1) return true;
    if (key.endsWith('/') && subpath.startsWith(key)) return true;
  }
  return false;
}

/** The line of `"name"` within a block of package.json (for a declared dependency's violation). */
function lineOf(text, field, name) {
  const lines = text.split('\n');
  let inField = false;
  for (let n = 0; n < lines.length; n++) {
    if (lines[n].includes(`"${field}"`)) inField = true;
    else if (inField && lines[n].includes(`"${name}"`)) return n + 1;
  }
  return 1;
}

// ---- the check --------------------------------------------------------------------------------------

/**
 * Scans the repository at `rootDir`: `{ violations, files, packages }`, each violation
 * `{ file, line, pkg, spec, reason }` (`file` relative to `rootDir`).
 */
export function scanLayout(rootDir) {
  const root = resolve(rootDir);
  const packages = readPackages(root);
  const byName = new Map(packages.map((p) => [p.name, p]));
  const byDir = packages.map((p) => ({ dir: p.dir + sep, name: p.name }));
  const violations = [];
  let files = 0;
  const flag = (file, line, pkg, spec, reason) => violations.push({ file: toPosix(relative(root, file)), line, pkg, spec, reason });

  for (const p of packages) {
    const rule = LAYOUT[p.name];
    const deps = p.json.dependencies ?? {};
    const peers = p.json.peerDependencies ?? {};
    const devs = p.json.devDependencies ?? {};
    const manifest = toPosix(relative(root, p.file));
    if (rule?.runtimeDependencies === false) {
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
        for (const dep of Object.keys(p.json[field] ?? {})) {
          flag(p.file, lineOf(p.text, field, dep), p.name, dep, `declared in ${field}: ${rule.why}`);
        }
      }
    }
    for (const file of sourceFiles(p.dir)) {
      files++;
      const top = toPosix(relative(p.dir, file)).split('/')[0];
      const runtime = RUNTIME_DIRS.has(top);
      let found;
      try {
        found = importsOf(readFileSync(file, 'utf8'));
      } catch (e) {
        flag(file, 1, p.name, '?', `cannot read: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      for (const { spec, line } of found) {
        if (spec.startsWith('.') || spec.startsWith('/') || /^file:/.test(spec)) {
          const target = spec.startsWith('file:') ? fileURLToPath(spec) : resolve(dirname(file), spec);
          if (!(target + sep).startsWith(p.dir + sep)) {
            const into = byDir.find((d) => (target + sep).startsWith(d.dir));
            const where = into === undefined ? 'outside every package' : `into the internals of ${into.name}`;
            flag(file, line, p.name, spec, `a relative path that leaves ${toPosix(relative(root, p.dir))}/, ${where}; import the package by its name`);
          }
          continue;
        }
        if (spec === '@core' || spec.startsWith(SCOPE)) {
          const [name, subpath] = splitSpecifier(spec);
          const target = byName.get(name);
          if (target === undefined) {
            flag(file, line, p.name, spec, `no workspace package is named ${name}`);
            continue;
          }
          if (subpath !== '.' && !exportsDeclares(target.json.exports, subpath)) {
            flag(file, line, p.name, spec, `the internals of ${name}: its exports map declares no "${subpath}"`);
          }
          if (name === p.name) continue; // a package may import itself by its name
          if (runtime && rule !== undefined && !rule.imports.includes(name)) {
            const only = rule.imports.length === 0 ? 'no @core package' : `only ${rule.imports.join(', ')}`;
            flag(file, line, p.name, spec, `its ${top}/ may import ${only}: ${rule.why}`);
          }
          const declared = name in deps || name in peers || name in devs;
          if (!declared) {
            flag(file, line, p.name, spec, `not declared in ${manifest} (dependencies, devDependencies or peerDependencies)`);
          } else if (runtime && !(name in deps || name in peers)) {
            flag(file, line, p.name, spec, `${top}/ ships, but ${manifest} declares ${name} only in devDependencies`);
          }
          continue;
        }
        if (runtime && rule?.runtimeDependencies === false) flag(file, line, p.name, spec, rule.why);
      }
    }
  }
  violations.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
  return { violations, files, packages: packages.length };
}

/** The violations of the repository at `rootDir` (empty when the layout holds). */
export function checkLayout(rootDir) {
  return scanLayout(rootDir).violations;
}

/** One violation as the CLI prints it. */
export function formatViolation(v) {
  return `${v.file}:${v.line}: ${v.pkg} may not import ${v.spec} (${v.reason})`;
}

function isMain() {
  if (process.argv[1] === undefined) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return pathToFileURL(process.argv[1]).href === import.meta.url;
  }
}

if (isMain()) {
  const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
  const { violations, files, packages } = scanLayout(root);
  for (const v of violations) console.log(formatViolation(v));
  if (violations.length > 0) {
    console.log(`layout: ${files} files in ${packages} packages, ${violations.length} violation${violations.length === 1 ? '' : 's'}`);
    process.exit(1);
  }
  console.log(`layout: ${files} files in ${packages} packages, 0 violations`);
}
