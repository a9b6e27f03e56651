import { isKeyScope, isUuid, KeyScope } from '@contracts/vocabulary';
import { AppError } from '@platform/errors';
import { OUTBOX_SCHEMAS } from '@platform/runner';
import { isEmail } from 'class-validator';

/** Parsers for the command line's option values: each refuses a bad value as a VALIDATION_ERROR naming its flag. */

export function text(flag: string): (value: string) => string {
  return (value) => {
    const trimmed = value.trim();
    if (trimmed === '') throw AppError.validation(flag, 'must not be empty');
    return trimmed;
  };
}

export function uuid(flag: string): (value: string) => string {
  return (value) => {
    if (!isUuid(value)) throw AppError.validation(flag, 'must be a UUID');
    return value.toLowerCase();
  };
}

export function plan(value: string): number {
  const usd = Number(value);
  if (value.trim() === '' || !Number.isInteger(usd) || usd < 0 || usd > 1_000_000) {
    throw AppError.validation('--plan', 'must be a whole number of USD, 0 or more');
  }
  return usd;
}

export const ADDONS = ['domains'] as const;

export function outboxSchema(value: string): string {
  if (!OUTBOX_SCHEMAS.includes(value)) throw AppError.validation('--schema', `unknown outbox ${value}; known: ${OUTBOX_SCHEMAS.join(', ')}`);
  return value;
}

/** A repeatable flag: each occurrence adds one known add-on. */
export function addon(flag: string): (value: string, previous: string[]) => string[] {
  return (value, previous) => {
    if (!(ADDONS as readonly string[]).includes(value)) throw AppError.validation(flag, `unknown add-on ${value}; known: ${ADDONS.join(', ')}`);
    return [...previous, value];
  };
}

export function scopes(value: string): KeyScope[] {
  const list = value.split(',').map((scope) => scope.trim()).filter(Boolean);
  if (list.length === 0) throw AppError.validation('--scopes', 'must name at least one scope');
  for (const scope of list) if (!isKeyScope(scope)) throw AppError.validation('--scopes', `unknown scope ${scope}`);
  return [...new Set(list)] as KeyScope[];
}

export function email(value: string): string {
  const address = value.trim().toLowerCase();
  if (!isEmail(address)) throw AppError.validation('--email', 'must be an email address');
  return address;
}
