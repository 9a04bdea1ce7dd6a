// Lints the Redis scripts with luacheck, each as Redis runs it: the parts its package's lua/scripts.json lists,
// joined in order, checked as one chunk under the package's .luacheckrc (Lua 5.1, Redis's globals and no others),
// with every warning mapped back to its part's file and line. A library function no script calls is reported too;
// one that some scripts call and others do not is fine. Installs nothing: scripts/ensure-luacheck.sh does.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The lines luacheck prints for one chunk (`--formatter plain`: `file:line:col: (Wnnn) message`). */
function luacheck(source, configFile) {
  try {
    execFileSync('luacheck', ['--formatter', 'plain', '--codes', '--ranges', '--config', configFile, '-'], {
      input: source,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return [];
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error('luacheck not found: run bash scripts/ensure-luacheck.sh (apt-get install lua-check)');
    return String(error.stdout)
      .split('\n')
      .filter((line) => line.trim() !== '');
  }
}

/** Lints every package of `root` that has a lua/scripts.json; returns the problems as `file:line:col: (code) text`. */
export function lintLua(root) {
  const problems = [];
  let scripts = 0;
  for (const name of readdirSync(join(root, 'packages'))) {
    const dir = join(root, 'packages', name);
    const manifest = join(dir, 'lua', 'scripts.json');
    if (!existsSync(manifest)) continue;
    const configFile = join(dir, '.luacheckrc');
    const entries = Object.entries(JSON.parse(readFileSync(manifest, 'utf8'))).filter(([key]) => !key.startsWith('$'));
    const unusedEverywhere = new Map();
    const loadedBy = new Map();
    for (const [script, parts] of entries) {
      scripts++;
      const spans = [];
      let text = '';
      for (const part of parts) {
        const file = join(dir, 'lua', `${part}.lua`);
        const body = readFileSync(file, 'utf8');
        const from = text.split('\n').length - (text === '' ? 1 : 0);
        spans.push({ file: relative(root, file), from, lines: body.split('\n').length, last: part === parts.at(-1) });
        text += (text === '' ? '' : '\n') + body;
      }
      const seenHere = new Set();
      for (const line of luacheck(text, configFile)) {
        const m = /^[^:]*:(\d+):(\d+)(-\d+)?: \((\w\d+)\) (.*)$/.exec(line);
        if (m === null) {
          problems.push(`${script}: ${line}`);
          continue;
        }
        const at = Number(m[1]);
        const span = spans.find((s) => at >= s.from + 1 && at <= s.from + s.lines) ?? spans.at(-1);
        const where = `${span.file}:${at - span.from}:${m[2]}: (${m[4]}) ${m[5]}`;
        // A library part's function may serve other scripts: report it only when no script uses it.
        if (m[4] === 'W211' && !span.last && /unused function/.test(m[5])) {
          seenHere.add(where);
          continue;
        }
        problems.push(`${where} [in script ${script}]`);
      }
      for (const where of seenHere) unusedEverywhere.set(where, (unusedEverywhere.get(where) ?? 0) + 1);
      for (const s of spans) loadedBy.set(s.file, (loadedBy.get(s.file) ?? 0) + 1);
    }
    for (const [where, count] of unusedEverywhere) if (count === loadedBy.get(where.split(':')[0])) problems.push(`${where} [in every script that loads it]`);
  }
  return { problems: [...new Set(problems)], scripts };
}

if (resolve(process.argv[1] ?? '') === resolve(new URL(import.meta.url).pathname)) {
  const { problems, scripts } = lintLua(resolve(new URL('..', import.meta.url).pathname));
  for (const p of problems) console.error(p);
  console.log(`lua: ${scripts} scripts, ${problems.length} problem(s)`);
  process.exit(problems.length === 0 ? 0 : 1);
}
