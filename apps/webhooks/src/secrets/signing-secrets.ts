import type { SealedWebhookRecord } from '../webhooks/webhook-record';
import type { SecretCipher } from './secret-cipher';

/** The secrets that sign a request now: the current one, then the previous one while its overlap lasts. */
export function signingSecrets(cipher: SecretCipher, webhook: SealedWebhookRecord, now = new Date()): string[] {
  const secrets = [cipher.decrypt(webhook.secret_ciphertext, webhook.id)];
  if (webhook.previous_secret_ciphertext && webhook.previous_secret_expires_at && webhook.previous_secret_expires_at > now) {
    secrets.push(cipher.decrypt(webhook.previous_secret_ciphertext, webhook.id));
  }
  return secrets;
}
