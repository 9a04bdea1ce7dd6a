import { describe, expect, it } from 'vitest';
import { DEMO_VENUES, parseCommandLine, UsageError } from '../src/index.js';

function usageError(argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
}

describe('parseCommandLine', () => {
  it('defaults the demo to okx, 20 s, 3 credentials, in process', () => {
    expect(parseCommandLine(['demo'])).toEqual({
      command: 'demo',
      venues: ['okx'],
      seconds: 20,
      credentials: 3,
      workers: undefined,
      redisUrl: undefined,
      processes: 1,
      outDir: 'demo-out',
      margin: 0.04,
      failOrders: 0.05,
      metricsPort: undefined,
      json: false,
    });
  });

  it('reads every demo option, and "all" means the five demo venues', () => {
    const c = parseCommandLine([
      'demo',
      '--venue',
      'all',
      '--seconds',
      '5',
      '--credentials',
      '2',
      '--workers',
      '7',
      '--redis',
      'redis://127.0.0.1:6390',
      '--processes',
      '4',
      '--out',
      'x',
      '--margin',
      '0.2',
      '--fail-orders',
      '0.5',
    ]);
    expect(c).toEqual({
      command: 'demo',
      venues: [...DEMO_VENUES],
      seconds: 5,
      credentials: 2,
      workers: 7,
      redisUrl: 'redis://127.0.0.1:6390',
      processes: 4,
      outDir: 'x',
      margin: 0.2,
      failOrders: 0.5,
      metricsPort: undefined,
      json: false,
    });
  });

  it('answers --help for each command', () => {
    expect(parseCommandLine([])).toEqual({ command: 'help', topic: 'main', missing: true });
    expect(parseCommandLine(['--help'])).toEqual({ command: 'help', topic: 'main' });
    expect(parseCommandLine(['demo', '--help'])).toEqual({ command: 'help', topic: 'demo' });
    expect(parseCommandLine(['inspect', '-h'])).toEqual({ command: 'help', topic: 'inspect' });
  });

  it('says what to fix for bad input', () => {
    expect(usageError(['dmeo'])).toContain('unknown command "dmeo"; the commands are demo and inspect');
    expect(usageError(['demo', '--sconds', '3'])).toContain("Unknown option '--sconds'");
    expect(usageError(['demo', '--seconds', 'ten'])).toBe('--seconds must be a whole number from 1 to 86400, got "ten"');
    expect(usageError(['demo', '--processes', '4'])).toContain('--processes needs --redis URL');
    expect(usageError(['demo', '--redis', 'localhost:6379'])).toContain('must start with redis:// or rediss://');
    expect(usageError(['demo', '--redis', 'not a url'])).toContain('is not a URL');
    expect(usageError(['demo', '--margin', '1'])).toContain('--margin must be a number from 0');
    expect(usageError(['demo', '--fail-orders', '1.5'])).toBe('--fail-orders must be a number from 0 to 1, got "1.5"');
    expect(usageError(['demo', '--fail-orders', 'some'])).toBe('--fail-orders must be a number from 0 to 1, got "some"');
    expect(usageError(['inspect'])).toContain('inspect needs --redis URL');
    expect(usageError(['inspect', '--redis', 'redis://h:1', '--prefix', 'a{b}'])).toContain('must not contain { or }');
  });

  it('reads inspect options', () => {
    expect(parseCommandLine(['inspect', '--redis', 'redis://127.0.0.1:7000', '--once', '--interval', '250', '--prefix', 'exlimits-demo:'])).toEqual({
      command: 'inspect',
      redisUrl: 'redis://127.0.0.1:7000',
      prefix: 'exlimits-demo:',
      intervalMs: 250,
      once: true,
      metricsPort: undefined,
      json: false,
    });
  });

  it('reads --metrics-port, --json and --version', () => {
    expect(parseCommandLine(['demo', '--metrics-port', '9464', '--json'])).toMatchObject({ command: 'demo', metricsPort: 9464, json: true });
    expect(parseCommandLine(['inspect', '--redis', 'redis://127.0.0.1:7000', '--metrics-port', '9465', '--json'])).toMatchObject({
      command: 'inspect',
      metricsPort: 9465,
      json: true,
    });
    expect(parseCommandLine(['--version'])).toEqual({ command: 'version' });
    expect(usageError(['demo', '--metrics-port', '0'])).toBe('--metrics-port must be a whole number from 1 to 65535, got "0"');
    expect(usageError(['demo', '--redis', 'redis://127.0.0.1:6390', '--processes', '2', '--metrics-port', '9464'])).toContain(
      '--metrics-port serves this process only',
    );
  });
});
