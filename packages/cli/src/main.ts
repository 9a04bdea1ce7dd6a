import { DEMO_HELP, INSPECT_HELP, MAIN_HELP } from './help.js';
import { runInspect } from './inspect.js';
import { parseCommandLine } from './parse-command-line.js';
import { runDemo } from './run-demo.js';
import { UsageError } from './usage-error.js';

/** Where the CLI writes. */
export interface CliIo {
  readonly out: NodeJS.WritableStream & { isTTY?: boolean };
  readonly err: NodeJS.WritableStream;
  /** Fires on Ctrl-C. */
  readonly signal?: AbortSignal;
}

/**
 * Runs `exlimits` with `argv` (without node and the script path).
 *
 * @returns the exit code: 0 done; 1 the run failed or the venue refused requests; 2 usage errors.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const cmd = parseCommandLine(argv);
    if (cmd.command === 'help') {
      io.out.write(cmd.topic === 'demo' ? DEMO_HELP : cmd.topic === 'inspect' ? INSPECT_HELP : MAIN_HELP);
      return 0;
    }
    if (cmd.command === 'inspect') {
      return await runInspect({ redisUrl: cmd.redisUrl, prefix: cmd.prefix, intervalMs: cmd.intervalMs, once: cmd.once, out: io.out, ...(io.signal === undefined ? {} : { signal: io.signal }) });
    }
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
        ...(cmd.ws === true ? { ws: true } : {}),
        out: io.out,
        ...(io.signal === undefined ? {} : { signal: io.signal }),
      });
      const refused = report.stats.violations + report.stats.refusedWhileBanned + (report.stats.webSocket?.violations ?? 0);
      if (report.failure !== undefined) {
        io.err.write(`exlimits demo: ${venue}: the run failed: ${report.failure}\n`);
        return 1;
      }
      if (refused > 0) {
        io.err.write(`exlimits demo: ${venue}: the venue refused ${refused} request(s); the limiter let too much through\n`);
        code = 1;
      }
      if (io.signal?.aborted === true) {
        io.err.write('exlimits demo: interrupted\n');
        return 1;
      }
      io.out.write('\n');
    }
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
