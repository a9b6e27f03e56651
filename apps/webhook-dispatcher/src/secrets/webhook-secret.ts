import { randomBytes } from 'node:crypto';

/** A new signing secret: `whsec_` and 32 random bytes, base64url. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
