import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 1;
/** Secrets kept opened, one per webhook (and one more while a rotation overlaps); past it they are opened again. */
const OPENED_KEPT = 10_000;

/**
 * Webhook secrets at rest: AES-256-GCM, stored as version | iv | tag | ciphertext. The webhook id is the
 * associated data, so a ciphertext copied onto another webhook's row does not decrypt.
 */
export class SecretCipher {
  /**
   * The secrets opened so far, by webhook and sealed bytes: every delivery signs with its webhook's secret,
   * and opening it each time took about 5% of a worker's CPU. A rotated secret is sealed anew, so it is
   * opened anew; what is kept lives no longer than the process, like the secret an attempt holds to sign.
   */
  private readonly opened = new Map<string, string>();

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The secret encryption key must be 32 bytes');
  }

  encrypt(plaintext: string, webhookId: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(webhookId, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ciphertext]);
  }

  decrypt(sealed: Buffer, webhookId: string): string {
    const key = `${webhookId}:${sealed.toString('base64')}`;
    let secret = this.opened.get(key);
    if (secret === undefined) {
      secret = this.open(sealed, webhookId);
      if (this.opened.size >= OPENED_KEPT) this.opened.clear();
      this.opened.set(key, secret);
    }
    return secret;
  }

  private open(sealed: Buffer, webhookId: string): string {
    if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION) throw new Error('Unreadable webhook secret');
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(webhookId, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
