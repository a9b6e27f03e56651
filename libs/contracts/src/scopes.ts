export const SCOPES = [
  'tables:read',
  'tables:write',
  'webhooks:read',
  'webhooks:write',
  'domains:read',
  'domains:write',
  'calendar:read',
  'calendar:write',
] as const;

export type Scope = (typeof SCOPES)[number];
export const ALL_SCOPES = '*';
export type KeyScope = Scope | typeof ALL_SCOPES;

export function isKeyScope(value: string): value is KeyScope {
  return value === ALL_SCOPES || (SCOPES as readonly string[]).includes(value);
}

export function grants(scopes: readonly string[], needed: Scope): boolean {
  return scopes.includes(ALL_SCOPES) || scopes.includes(needed);
}
