import { parseArgs } from 'node:util';
import { isKeyScope, isUuid, KeyScope } from '@contracts';
import { AppError } from '@platform/errors';

export const OPTIONS = {
  name: { type: 'string' },
  plan: { type: 'string' },
  addon: { type: 'string', multiple: true },
  'remove-addon': { type: 'string', multiple: true },
  org: { type: 'string' },
  scopes: { type: 'string' },
  'key-id': { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  member: { type: 'string' },
} as const;

export type CliValues = ReturnType<typeof parse>['values'];

export function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw AppError.badRequest((error as Error).message);
  }
}

export function required(values: CliValues, name: keyof CliValues): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw AppError.validation(`--${name}`, 'is required');
  return value.trim();
}

export function uuidOption(values: CliValues, name: keyof CliValues): string {
  const value = required(values, name);
  if (!isUuid(value)) throw AppError.validation(`--${name}`, 'must be a UUID');
  return value.toLowerCase();
}

export function planOption(values: CliValues): number | undefined {
  if (values.plan === undefined) return undefined;
  const plan = Number(values.plan);
  if (!Number.isInteger(plan) || plan < 0 || plan > 1_000_000) throw AppError.validation('--plan', 'must be a whole number of USD, 0 or more');
  return plan;
}

const ADDONS = ['domains'];

export function addonsOption(values: CliValues, name: 'addon' | 'remove-addon'): string[] {
  const addons = values[name] ?? [];
  for (const addon of addons) if (!ADDONS.includes(addon)) throw AppError.validation(`--${name}`, `unknown add-on ${addon}; known: ${ADDONS.join(', ')}`);
  return addons;
}

export function scopesOption(values: CliValues): KeyScope[] {
  const scopes = (values.scopes ?? '*').split(',').map((scope) => scope.trim()).filter(Boolean);
  if (scopes.length === 0) throw AppError.validation('--scopes', 'must name at least one scope');
  for (const scope of scopes) if (!isKeyScope(scope)) throw AppError.validation('--scopes', `unknown scope ${scope}`);
  return [...new Set(scopes)] as KeyScope[];
}

export function emailOption(values: CliValues): string {
  const email = required(values, 'email').toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) throw AppError.validation('--email', 'must be an email address');
  return email;
}
