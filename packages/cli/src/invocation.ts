import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How to run `exlimits` from where the user typed the command: `npx exlimits` when the package is
 * installed (its files are under node_modules, its bin on npx's path), else, in a clone of the
 * repository, `node <path to bin/cli.mjs>` relative to the directory the command was started from
 * (`INIT_CWD` under a package manager's script, which runs in the package's folder).
 */
export function exlimitsCommand(cwd: string = process.env['INIT_CWD'] ?? process.cwd(), moduleUrl: string = import.meta.url): string {
  const file = fileURLToPath(moduleUrl);
  if (file.split(/[\\/]/).includes('node_modules')) return 'npx exlimits';
  return `node ${relative(cwd, fileURLToPath(new URL('../bin/cli.mjs', moduleUrl)))}`;
}
