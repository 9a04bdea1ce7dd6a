import type { Capabilities } from '@core/rate-limit-contract';

/**
 * What a test needs from the implementation: a capability from its manifest, the subject's fault
 * hooks, or the `provider` option. A test whose needs are not met is registered as skipped, with
 * the reason in its title.
 */
export type Requirement = keyof Capabilities | 'faultHooks' | 'provider';

/** What the suite knows about the implementation when it registers the tests. */
export interface SubjectTraits {
  readonly capabilities: Capabilities;
  readonly faultHooks: boolean;
  readonly provider: boolean;
}

/** Why a test cannot run, or `undefined` when it can. */
export function missingRequirement(needs: readonly Requirement[], traits: SubjectTraits): string | undefined {
  const missing: string[] = [];
  for (const need of needs) {
    if (need === 'faultHooks') {
      if (!traits.faultHooks) missing.push('the subject offers no breakStore/repairStore');
    } else if (need === 'provider') {
      if (!traits.provider) missing.push('no provider option was given');
    } else if (traits.capabilities[need] !== true) {
      missing.push(`capabilities.${need} is false`);
    }
  }
  return missing.length === 0 ? undefined : missing.join('; ');
}
