import { createRequire } from 'node:module';
import { DEMO_HELP, INSPECT_HELP, MAIN_HELP } from './help.js';
import { runInspect } from './inspect.js';
import { parseCommandLine } from './parse-command-line.js';
import { runDemo, type DemoReport } from './run-demo.js';
import { demoSummary } from './summary-data.js';
import { UsageError } from './usage-error.js';

/** Where the CLI writes. */
export interface CliIo {
  readonly out: NodeJS.WritableStream & { isTTY?: boolean };
  readonly err: NodeJS.WritableStream;
  /** Fires on Ctrl-C. */
  readonly signal?: AbortSignal;
}

/** This package's version (from its package.json, beside `dist/` and `src/`). */
export function cliVersion(): string {
  return (createRequire(import.meta.url)('../package.json') as { version: string }).version;
}

/**
 * Runs `exlimits` with `argv` (without node and the script path).
 *
 * @returns the exit code: 0 done; 1 the run failed or the venue refused requests; 2 usage errors
 * (running without a command is one: the help goes to stderr).
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const cmd = parseCommandLine(argv);
    if (cmd.command === 'version') {
      io.out.write(`exlimits ${cliVersion()}\n`);
      return 0;
    }
    if (cmd.command === 'help') {
      if (cmd.missing === true) {
        io.err.write(`exlimits: no command given\n\n${MAIN_HELP}`);
        return 2;
      }
      io.out.write(cmd.topic === 'demo' ? DEMO_HELP : cmd.topic === 'inspect' ? INSPECT_HELP : MAIN_HELP);
      return 0;
    }
    if (cmd.command === 'inspect') {
      return await runInspect({
        redisUrl: cmd.redisUrl,
        prefix: cmd.prefix,
        intervalMs: cmd.intervalMs,
        once: cmd.once,
        out: io.out,
        json: cmd.json,
        metricsPort: cmd.metricsPort,
        ...(io.signal === undefined ? {} : { signal: io.signal }),
      });
    }
    // With --json the human output (progress, tables) goes to stderr and stdout carries only the data.
    const human = cmd.json ? (io.err as NodeJS.WritableStream & { isTTY?: boolean }) : io.out;
    const reports: DemoReport[] = [];
    let code = 0;
    for (const venue of cmd.venues) {
      const report = await runDemo({
        venue,
        seconds: cmd.seconds,
        credentials: cmd.credentials,
        workers: cmd.workers,
        redisUrl: cmd.redisUrl,
        processes: cmd.processes,
        outDir: cmd.outDir,
        margin: cmd.margin,
        failOrders: cmd.failOrders,
        metricsPort: cmd.metricsPort,
        ...(cmd.ws === true ? { ws: true } : {}),
        ...(cmd.noClasses === true ? { classes: false } : {}),
        ...(cmd.client === 'ccxt' ? { client: 'ccxt' as const } : {}),
        out: human,
        ...(io.signal === undefined ? {} : { signal: io.signal }),
      });
      reports.push(report);
      const refused = (report.families?.map((f) => f.stats) ?? [report.stats]).reduce(
        (n, s) => n + s.violations + s.refusedWhileBanned + (s.webSocket?.violations ?? 0),
        0,
      );
      if (report.failure !== undefined) {
        io.err.write(`exlimits demo: ${venue}: the run failed: ${report.failure}\n`);
        code = 1;
        break;
      }
      if (refused > 0) {
        io.err.write(`exlimits demo: ${venue}: the venue refused ${refused} request(s); the limiter let too much through\n`);
        code = 1;
      }
      if (io.signal?.aborted === true) {
        io.err.write('exlimits demo: interrupted\n');
        code = 1;
        break;
      }
      human.write('\n');
    }
    if (cmd.json) io.out.write(`${JSON.stringify({ runs: reports.map(demoSummary) }, null, 2)}\n`);
    return code;
  } catch (e) {
    if (e instanceof UsageError) {
      io.err.write(`exlimits: ${e.message}\n`);
      return 2;
    }
    io.err.write(`exlimits: ${(e as Error).message}\n`);
    return 1;
  }
}
