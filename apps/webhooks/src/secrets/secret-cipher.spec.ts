import { randomBytes } from 'node:crypto';
import { loadConfig, ConfigError } from '@platform/config';
import { WebhooksConfig } from '../webhooks.config';
import { SecretCipher } from './secret-cipher';
import { decodeEncryptionKey, encryptionKeyFrom } from './secret-encryption-key';
import { generateWebhookSecret } from './webhook-secret';

describe('SecretCipher', () => {
  const cipher = new SecretCipher(randomBytes(32));
  const id = '5b1f7a7e-2c1d-4e6f-8a9b-0c1d2e3f4a5b';

  it('round-trips a secret and never stores it in the clear', () => {
    const secret = generateWebhookSecret();
    const sealed = cipher.encrypt(secret, id);
    expect(sealed.includes(Buffer.from(secret))).toBe(false);
    expect(cipher.decrypt(sealed, id)).toBe(secret);
  });

  it('uses a fresh nonce every time', () => {
    expect(cipher.encrypt('whsec_same', id).equals(cipher.encrypt('whsec_same', id))).toBe(false);
  });

  it('refuses a tampered ciphertext, another webhook id and another key', () => {
    const sealed = cipher.encrypt('whsec_x', id);
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] ^= 1;
    expect(() => cipher.decrypt(tampered, id)).toThrow();
    expect(() => cipher.decrypt(sealed, '00000000-0000-4000-8000-000000000000')).toThrow();
    expect(() => new SecretCipher(randomBytes(32)).decrypt(sealed, id)).toThrow();
  });

  it('keeps what it opened to the webhook it was sealed for: once opened, the same bytes on another webhook, or tampered, are still refused', () => {
    const sealed = cipher.encrypt('whsec_kept', id);
    expect(cipher.decrypt(sealed, id)).toBe('whsec_kept');
    expect(cipher.decrypt(Buffer.from(sealed), id)).toBe('whsec_kept');
    expect(() => cipher.decrypt(sealed, '00000000-0000-4000-8000-000000000000')).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] ^= 1;
    expect(() => cipher.decrypt(tampered, id)).toThrow();
  });
});

describe('webhook secrets', () => {
  it('start with whsec_ and standard base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});

describe('SECRET_ENCRYPTION_KEY', () => {
  const key = randomBytes(32);

  it('reads 32 bytes as hex, base64 or base64url', () => {
    expect(decodeEncryptionKey(key.toString('hex'))).toEqual(key);
    expect(decodeEncryptionKey(key.toString('base64'))).toEqual(key);
    expect(decodeEncryptionKey(key.toString('base64url'))).toEqual(key);
    expect(decodeEncryptionKey(randomBytes(16).toString('base64'))).toBeUndefined();
    expect(decodeEncryptionKey('not a key!')).toBeUndefined();
  });

  it('has a development default outside production only', () => {
    const development = loadConfig(WebhooksConfig, { NODE_ENV: 'development' });
    expect(encryptionKeyFrom(development)).toHaveLength(32);
    expect(() => loadConfig(WebhooksConfig, { NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig(WebhooksConfig, { NODE_ENV: 'production' })).toThrow(/SECRET_ENCRYPTION_KEY/);
  });

  it('is used as given, and a malformed one stops the process without echoing it', () => {
    const production = loadConfig(WebhooksConfig, { NODE_ENV: 'production', SECRET_ENCRYPTION_KEY: key.toString('base64') });
    expect(encryptionKeyFrom(production)).toEqual(key);
    expect(() => loadConfig(WebhooksConfig, { SECRET_ENCRYPTION_KEY: 'short' })).toThrow(/SECRET_ENCRYPTION_KEY must be 32 bytes/);
  });
});
