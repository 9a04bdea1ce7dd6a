// `pnpm mutation`: runs Stryker on the kit and the in-process store (and with --redis on the Redis store's
// TypeScript protocol) against the conformance suite alone, then prints one score line per target from the JSON
// reports. Extra arguments go to Stryker (for example `--mutate packages/rate-limit-kit/src/gcra.ts` to iterate).
// Incremental: a second run reuses the results of unchanged mutants and tests (mutation/reports/*.incremental.json).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const targets = args.includes('--redis') ? ['default', 'redis'] : ['default'];
const passOn = args.filter((a) => a !== '--redis');
const stryker = fileURLToPath(new URL('../node_modules/@stryker-mutator/core/bin/stryker.js', import.meta.url));

/** Counts a Stryker JSON report: killed and timed-out mutants are detected; survivors and uncovered ones are not. */
export function score(report) {
  const count = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0, CompileError: 0, RuntimeError: 0 };
  for (const file of Object.values(report.files)) for (const m of file.mutants) count[m.status] = (count[m.status] ?? 0) + 1;
  const detected = count.Killed + count.Timeout;
  const valid = detected + count.Survived + count.NoCoverage;
  return { ...count, detected, valid, percent: valid === 0 ? 100 : (100 * detected) / valid };
}

let failed = false;
for (const target of targets) {
  const started = Date.now();
  const run = spawnSync(process.execPath, [stryker, 'run', `mutation/stryker.${target}.config.mjs`, ...passOn], { cwd: root, stdio: 'inherit' });
  const report = `${root}mutation/reports/${target}.json`;
  if (run.status !== 0 || !existsSync(report)) {
    console.error(`mutation score (${target}): Stryker failed (exit ${run.status})`);
    failed = true;
    continue;
  }
  const s = score(JSON.parse(readFileSync(report, 'utf8')));
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(
    `mutation score (${target}): ${s.percent.toFixed(2)} % of ${s.valid} mutants detected (killed ${s.Killed}, timeout ${s.Timeout}, survived ${s.Survived}, no coverage ${s.NoCoverage}) in ${minutes} min`,
  );
}
process.exit(failed ? 1 : 0);
