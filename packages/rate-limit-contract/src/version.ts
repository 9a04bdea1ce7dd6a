/**
 * The version of the behaviour contract (this package's RULEBOOK.md) an implementation speaks.
 *
 * @remarks A host that loads an implementation by module name compares this marker before it uses
 * the instance, so a module written against another version of the contract is refused with a clear
 * error instead of misbehaving quietly.
 *
 * @example
 * ```ts
 * if (limiter.specificationVersion !== 'v1') throw new Error('unsupported limiter');
 * ```
 */
export type SpecificationVersion = 'v1';
