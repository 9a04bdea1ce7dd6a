import type { Capabilities } from '@core/rate-limit-contract';

/**
 * What a test needs from the implementation: a capability from its manifest, the subject's fault
 * hooks, or the `provider` option; or, for `missingOperation`, an optional operation the manifest
 * marks as not offered (`sync`, `penalize` or `snapshot` false), and for `noWindowLimits` a manifest
 * without window limits (`windowLimits` false), and for `noPriorities` one without classes (`priorities` not true). A test whose needs are not met is registered as
 * skipped, with the reason in its title.
 */
export type Requirement = keyof Capabilities | 'faultHooks' | 'provider' | 'peer' | 'storageKeys' | 'missingOperation' | 'noWindowLimits' | 'noPriorities';

/** The operations a limiter may leave out, each with a capability of its name. */
export const OPTIONAL_OPERATIONS = ['sync', 'penalize', 'snapshot'] as const;

/** What the suite knows about the implementation when it registers the tests. */
export interface SubjectTraits {
  readonly capabilities: Capabilities;
  readonly faultHooks: boolean;
  readonly provider: boolean;
  readonly peer: boolean;
  readonly storageKeys: boolean;
}

/** Why a test cannot run, or `undefined` when it can. */
export function missingRequirement(needs: readonly Requirement[], traits: SubjectTraits): string | undefined {
  const missing: string[] = [];
  for (const need of needs) {
    if (need === 'faultHooks') {
      if (!traits.faultHooks) missing.push('the subject offers no breakStore/repairStore');
    } else if (need === 'provider') {
      if (!traits.provider) missing.push('no provider option was given');
    } else if (need === 'peer') {
      if (!traits.peer) missing.push('the subject offers no peer() (a second limiter on the same store)');
    } else if (need === 'storageKeys') {
      if (!traits.storageKeys) missing.push('the subject offers no storageKeys()');
    } else if (need === 'noWindowLimits') {
      if (traits.capabilities.windowLimits) missing.push('the limiter offers window limits (capabilities.windowLimits is true)');
    } else if (need === 'noPriorities') {
      if (traits.capabilities.priorities === true) missing.push('the limiter offers priorities (capabilities.priorities is true)');
    } else if (need === 'missingOperation') {
      if (OPTIONAL_OPERATIONS.every((op) => traits.capabilities[op]))
        missing.push('the limiter offers every optional operation (capabilities.sync, penalize and snapshot are true)');
    } else if (traits.capabilities[need] !== true) {
      missing.push(`capabilities.${need} is false`);
    }
  }
  return missing.length === 0 ? undefined : missing.join('; ');
}
