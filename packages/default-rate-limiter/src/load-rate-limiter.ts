import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RateLimiter, RateLimiterSelection } from '@core/rate-limit-contract';
import * as defaultModule from './default-module.js';

/** Options of {@link loadRateLimiter}. */
export interface LoadRateLimiterOptions {
  /**
   * The directory module names and relative paths are resolved from, as the host's own imports would
   * be; default `process.cwd()`. A name not found there is imported as this package would import it.
   */
  readonly from?: string;
}

/** The URL to import for `specifier`, resolved from the host's directory when it can be found there. */
function resolveFromHost(specifier: string, from: string): string {
  if (isAbsolute(specifier)) return pathToFileURL(specifier).href;
  try {
    return pathToFileURL(createRequire(join(from, 'package.json')).resolve(specifier)).href;
  } catch {
    return specifier;
  }
}

/** The contract version this host speaks. */
const HOST_VERSION = 'v1';
/** The module a host uses when its configuration names none. */
export const DEFAULT_RATE_LIMITER_MODULE = '@core/default-rate-limiter';

function describeVersion(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'no specificationVersion' : `a ${typeof v}`;
}

/**
 * Selects a rate limiter by configuration: imports `selection.module` (default: this package),
 * checks that the module and the instance it builds speak contract version `v1`, and returns the
 * instance built with `selection.options`.
 *
 * @param selection - `{ module?, options? }`; a module name or path, resolved from the host's
 * directory (`options.from`, default the working directory).
 * @param loadOptions - where names are resolved from.
 * @returns the limiter.
 * @throws Error naming the module and what it exported when it cannot be imported, does not export
 * `createRateLimiter`, or speaks another version.
 * @example
 * ```ts
 * const limiter = await loadRateLimiter({ module: '@core/redis-rate-limiter', options: { url: 'redis://127.0.0.1:6380', prefix: 'bot:' } });
 * ```
 */
export async function loadRateLimiter(selection: RateLimiterSelection = {}, loadOptions: LoadRateLimiterOptions = {}): Promise<RateLimiter> {
  const name = selection.module ?? DEFAULT_RATE_LIMITER_MODULE;
  let mod: Record<string, unknown>;
  if (selection.module === undefined || selection.module === DEFAULT_RATE_LIMITER_MODULE) {
    mod = defaultModule;
  } else {
    try {
      mod = (await import(resolveFromHost(selection.module, loadOptions.from ?? process.cwd()))) as Record<string, unknown>;
    } catch (e) {
      throw new Error(`rate limiter module "${name}" could not be imported: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }
  if (mod.specificationVersion !== HOST_VERSION) {
    throw new Error(`rate limiter module "${name}" speaks ${describeVersion(mod.specificationVersion)}; this host speaks contract version "${HOST_VERSION}"`);
  }
  if (typeof mod.createRateLimiter !== 'function') {
    throw new Error(`rate limiter module "${name}" does not export a createRateLimiter(options) function`);
  }
  const instance = (await (mod.createRateLimiter as (options: unknown) => unknown)(selection.options)) as Partial<RateLimiter> | null;
  if (typeof instance !== 'object' || instance === null) {
    throw new Error(`rate limiter module "${name}": createRateLimiter returned ${instance === null ? 'null' : typeof instance}, not a limiter`);
  }
  if (instance.specificationVersion !== HOST_VERSION) {
    throw new Error(
      `rate limiter module "${name}" built an instance that speaks ${describeVersion(instance.specificationVersion)}; this host speaks contract version "${HOST_VERSION}"`,
    );
  }
  return instance as RateLimiter;
}
