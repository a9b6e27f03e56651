import { createHash } from 'node:crypto';
import { ProductionRule } from '@platform/config';
import { ValidationOptions } from 'class-validator';

const KEY_BYTES = 32;

/** Only for development and tests: anyone can read it here, so production refuses to start without a real key. */
const DEVELOPMENT_KEY = createHash('sha256').update('org-data-platform development webhook secret key').digest();

/** Reads a 32-byte key given as 64 hex characters or as base64 (standard or url-safe). */
export function decodeEncryptionKey(text: string): Buffer | undefined {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return undefined;
  const key = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === KEY_BYTES ? key : undefined;
}

/** The configured key, or the development key when none is set outside production. */
export function encryptionKeyFrom(config: { SECRET_ENCRYPTION_KEY: string; isProduction: boolean }): Buffer {
  if (config.SECRET_ENCRYPTION_KEY) {
    const key = decodeEncryptionKey(config.SECRET_ENCRYPTION_KEY);
    if (key) return key;
  }
  if (config.isProduction) throw new Error('SECRET_ENCRYPTION_KEY is required in production');
  return DEVELOPMENT_KEY;
}

/** Valid when it decodes to 32 bytes; empty only outside production. Never echoes the value. */
export const IsSecretEncryptionKey = (options?: ValidationOptions) =>
  ProductionRule(
    'isSecretEncryptionKey',
    'must be 32 bytes as base64 or 64 hex characters (required when NODE_ENV=production)',
    (value, production) => (value === '' || value === undefined ? !production : typeof value === 'string' && decodeEncryptionKey(value) !== undefined),
    options,
  );
