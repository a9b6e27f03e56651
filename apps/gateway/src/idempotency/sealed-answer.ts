import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Marks a sealed answer; an answer stored before answers were sealed is kept as sent and has none. */
const SEALED_PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Who may read an answer back: the API key that made the request, for its organization's Idempotency-Key. */
export interface AnswerOwner {
  /** The bearer token as sent: never stored, so the database alone cannot open what it holds. */
  apiKey: string;
  organizationId: string;
  idempotencyKey: string;
}

/** AES-256-GCM's key for one stored answer, derived (HKDF-SHA256) from the API key and where the answer is kept. */
function answerKey(owner: AnswerOwner): Buffer {
  const where = `${owner.organizationId}\n${owner.idempotencyKey}`;
  return Buffer.from(hkdfSync('sha256', owner.apiKey, 'idempotent-answer', where, 32));
}

/**
 * An answer kept for replay may hold a secret only its request may see (a webhook's signing secret), so
 * it is stored encrypted with a key only the same API key can derive again: a reader of the database or
 * of a backup, or another key of the organization, cannot open it.
 */
export function sealAnswer(owner: AnswerOwner, answer: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', answerKey(owner), iv);
  const sealed = Buffer.concat([cipher.update(answer, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

/** The answer as sent, or undefined when `owner` is not who sealed it. */
export function openAnswer(owner: AnswerOwner, stored: string): string | undefined {
  if (!stored.startsWith(SEALED_PREFIX)) return stored;
  const bytes = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  const decipher = createDecipheriv('aes-256-gcm', answerKey(owner), bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
