import { createHash, createHmac } from 'node:crypto';

/**
 * The one-way hash that stands for a credential everywhere outside the caller's hands (RL-K3):
 * the first 32 hex characters of SHA-256 of the UTF-8 credential, or of HMAC-SHA-256 keyed with
 * `secret` when one is configured. Every process sharing buckets computes the same value.
 *
 * @param credential - the API key (a secret).
 * @param secret - an optional key for HMAC, so the hash cannot be checked against guessed keys.
 * @returns 32 lowercase hex characters.
 * @example
 * ```ts
 * hashCredential('my-api-key'); // '…32 hex chars…'
 * ```
 */
export function hashCredential(credential: string, secret?: string): string {
  const h = secret === undefined ? createHash('sha256') : createHmac('sha256', secret);
  return h.update(credential, 'utf8').digest('hex').slice(0, 32);
}
