import { createHash } from 'node:crypto';

/**
 * A short one-way hash of a credential for the emulator's statistics (credentials never appear
 * raw in stats or logs, RL-K3): the first 12 hex characters of SHA-256.
 */
export function hashCredential(credential: string): string {
  return createHash('sha256').update(credential, 'utf8').digest('hex').slice(0, 12);
}
