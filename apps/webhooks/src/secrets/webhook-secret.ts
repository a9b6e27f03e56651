import { randomBytes } from 'node:crypto';

/** A new signing secret: `whsec_` and standard base64 (with padding) of 32 random bytes, as Standard Webhooks expects. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
