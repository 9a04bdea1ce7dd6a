import type { RateLimiter } from './limiter.js';
import type { SpecificationVersion } from './version.js';

/**
 * What a module must export so a host can select it by configuration (a module name plus options).
 *
 * @remarks The host refuses a module whose `specificationVersion` (on the module and on the
 * instance it builds) is not the one it speaks.
 *
 * @example
 * ```ts
 * // my-limiter/index.ts
 * export const specificationVersion = 'v1';
 * export function createRateLimiter(options: unknown): RateLimiter { ... }
 * ```
 */
export interface RateLimiterModule<Options = unknown> {
  readonly specificationVersion: SpecificationVersion;
  createRateLimiter(options: Options): RateLimiter | Promise<RateLimiter>;
}

/** A host's choice of implementation: a module name (or path) and the options passed to it. */
export interface RateLimiterSelection<Options = unknown> {
  /** Module specifier to import; default `"@core/default-rate-limiter"`. */
  readonly module?: string;
  readonly options?: Options;
}
