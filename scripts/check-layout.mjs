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

// ---- reading source ---------------------------------------------------------------------------------

const KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);
const isIdStart = (c) => /[A-Za-z_$\u0080-\uffff#]/.test(c);
const isIdPart = (c) => /[\w$\u0080-\uffff]/.test(c);

/**
 * The tokens of a JavaScript or TypeScript source, comments dropped: `{ t: 'id' | 'str' | 'punct' | 'other',
 * v, line }`. A string's `v` is its text; a template literal with substitutions has `v: null`.
 */
export function tokenize(text) {
  const tokens = [];
  const braces = []; // 'b' for a plain brace, 't' for a template substitution
  let i = 0;
  let line = 1;
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  if (text.startsWith('#!', i)) while (i < text.length && text[i] !== '\n') i++;
  const push = (t, v, ln) => tokens.push({ t, v, line: ln });
  const regexAllowed = () => {
    const p = tokens[tokens.length - 1];
    if (p === undefined) return true;
    if (p.t === 'id') return KEYWORDS_BEFORE_EXPRESSION.has(p.v);
    if (p.t === 'punct') return !(p.v === ')' || p.v === ']');
    return false;
  };
  // Scans a template literal's text from i (after the backtick or a substitution's closing brace).
  const template = (startLine) => {
    let raw = '';
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') {
        raw += text.slice(i, i + 2);
        if (text[i + 1] === '\n') line++;
        i += 2;
      } else if (c === '`') {
        i++;
        return { done: true, raw, startLine };
      } else if (c === '$' && text[i + 1] === '{') {
        i += 2;
        braces.push('t');
        return { done: false, raw, startLine };
      } else {
        if (c === '\n') line++;
        raw += c;
        i++;
      }
    }
    return { done: true, raw, startLine };
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0') {
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (let k = i; k < stop; k++) if (text[k] === '\n') line++;
      i = stop;
    } else if (c === '"' || c === "'") {
      const startLine = line;
      let v = '';
      i++;
      while (i < text.length && text[i] !== c && text[i] !== '\n') {
        if (text[i] === '\\') {
          v += text[i + 1] ?? '';
          if (text[i + 1] === '\n') line++;
          i += 2;
        } else v += text[i++];
      }
      i++;
      push('str', v, startLine);
    } else if (c === '`') {
      i++;
      const r = template(line);
      push('str', r.done ? r.raw : null, r.startLine);
    } else if (c === '}' && braces[braces.length - 1] === 't') {
      braces.pop();
      i++;
      const r = template(line);
      if (!r.done) continue;
    } else if (c === '/' && regexAllowed()) {
      // A regular expression literal; one that reaches the end of the line was a division after all.
      let k = i + 1;
      let inClass = false;
      let ok = false;
      while (k < text.length && text[k] !== '\n') {
        const d = text[k];
        if (d === '\\') k += 2;
        else {
          if (d === '[') inClass = true;
          else if (d === ']') inClass = false;
          else if (d === '/' && !inClass) {
            ok = true;
            break;
          }
          k++;
        }
      }
      if (ok) {
        k++;
        while (k < text.length && isIdPart(text[k])) k++;
        push('other', 'regex', line);
        i = k;
      } else {
        push('punct', '/', line);
        i++;
      }
    } else if (isIdStart(c)) {
      let k = i + 1;
      while (k < text.length && isIdPart(text[k])) k++;
      push('id', text.slice(i, k), line);
      i = k;
    } else if (/[0-9]/.test(c)) {
      let k = i + 1;
      while (k < text.length && /[\w.]/.test(text[k])) k++;
      push('other', 'number', line);
      i = k;
    } else {
      if (c === '{') braces.push('b');
      else if (c === '}') braces.pop();
      push('punct', c, line);
      i++;
    }
  }
  return tokens;
}

/** Every module specifier a source imports or re-exports, with its line: `{ spec, line, dynamic }`. */
export function importsOf(text) {
  const tokens = tokenize(text);
  const found = [];
  const at = (k) => tokens[k] ?? { t: 'eof', v: undefined, line: 0 };
  const isP = (k, v) => at(k).t === 'punct' && at(k).v === v;
  const isId = (k, v) => at(k).t === 'id' && at(k).v === v;
  const str = (k) => at(k).t === 'str' && at(k).v !== null;
  // From k, the specifier after `from` at brace depth 0, before any `;` or `=`.
  const fromClause = (k) => {
    let depth = 0;
    for (let n = 0; n < 2000 && k < tokens.length; n++, k++) {
      const tk = at(k);
      if (tk.t === 'punct') {
        if (tk.v === '{') depth++;
        else if (tk.v === '}') depth--;
        else if (depth === 0 && (tk.v === ';' || tk.v === '=' || tk.v === '(' || tk.v === ')')) return undefined;
      } else if (tk.t === 'id' && tk.v === 'from' && depth === 0 && str(k + 1)) return k + 1;
      else if (tk.t === 'str' && depth === 0) return undefined;
    }
    return undefined;
  };
  for (let k = 0; k < tokens.length; k++) {
    const tk = tokens[k];
    if (tk.t !== 'id') continue;
    const afterDot = isP(k - 1, '.') && !isP(k - 2, '.');
    if (afterDot) continue;
    if (tk.v === 'import') {
      if (isP(k + 1, '.')) continue; // import.meta
      if (isP(k + 1, '(')) {
        if (str(k + 2) && (isP(k + 3, ')') || isP(k + 3, ','))) found.push({ spec: at(k + 2).v, line: at(k + 2).line, dynamic: true });
        continue;
      }
      if (str(k + 1)) {
        found.push({ spec: at(k + 1).v, line: at(k + 1).line, dynamic: false });
        continue;
      }
      const s = fromClause(k + 1);
      if (s !== undefined) found.push({ spec: at(s).v, line: at(s).line, dynamic: false });
    } else if (tk.v === 'export') {
      let k2 = k + 1;
      if (isId(k2, 'type')) k2++;
      if (isP(k2, '*')) {
        k2++;
        if (isId(k2, 'as')) k2 += 2;
        if (isId(k2, 'from') && str(k2 + 1)) found.push({ spec: at(k2 + 1).v, line: at(k2 + 1).line, dynamic: false });
      } else if (isP(k2, '{')) {
        let depth = 0;
        for (; k2 < tokens.length; k2++) {
          if (isP(k2, '{')) depth++;
          else if (isP(k2, '}') && --depth === 0) break;
        }
        if (isId(k2 + 1, 'from') && str(k2 + 2)) found.push({ spec: at(k2 + 2).v, line: at(k2 + 2).line, dynamic: false });
      }
    } else if (tk.v === 'require' && isP(k + 1, '(') && str(k + 2) && isP(k + 3, ')')) {
      found.push({ spec: at(k + 2).v, line: at(k + 2).line, dynamic: false });
    }
  }
  return found;
}

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
