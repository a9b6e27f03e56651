import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'sk_';
/** 32 random bytes, base64url: 43 characters after the prefix. */
export const API_KEY_PATTERN = /^sk_[A-Za-z0-9_-]{43}$/;

export interface IssuedApiKey {
  key: string;
  hash: Buffer;
  prefix: string;
}

/** Keys carry 256 bits of entropy, so one fast SHA-256 is the right hash (no password stretching needed). */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

export function issueApiKey(): IssuedApiKey {
  const key = PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key), prefix: key.slice(0, PREFIX.length + 6) };
}
