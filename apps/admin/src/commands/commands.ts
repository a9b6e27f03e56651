import type { KeyScope } from '@contracts/vocabulary';
import { AppError } from '@platform/errors';
import { Outbox } from '@platform/persistence';
import type { AdminSession } from '../admin-session';

/** What each command does, given its checked options. */

export function createOrganization({ store }: AdminSession, options: { name: string; plan: number; addon: string[] }) {
  return store.createOrganization({ name: options.name, plan: options.plan, addons: options.addon });
}

export async function updateOrganization(
  { store, announce }: AdminSession,
  options: { org: string; plan?: number; addon: string[]; removeAddon: string[] },
) {
  const org = await store.updateOrganization(options.org, { plan: options.plan, add: options.addon, remove: options.removeAddon });
  await announce({ kind: 'org', orgId: org.id });
  return org;
}

export async function listOrganizations({ store }: AdminSession) {
  return { organizations: await store.listOrganizations() };
}

export async function listKeys({ store }: AdminSession, options: { org?: string }) {
  return { keys: await store.listKeys(options.org) };
}

export function createKey({ store }: AdminSession, options: { org: string; scopes: KeyScope[] }) {
  return store.createKey(options.org, options.scopes);
}

export async function revokeKey({ store, announce }: AdminSession, options: { keyId: string }) {
  const revoked = await store.revokeKey(options.keyId);
  await announce({ kind: 'key', keyId: revoked.id });
  return revoked;
}

export function inviteMember({ store }: AdminSession, options: { org: string; email: string; role: string }) {
  return store.inviteMember(options.org, options.email, options.role);
}

export function joinMember({ store }: AdminSession, options: { member: string }) {
  return store.joinMember(options.member);
}

export function removeMember({ store }: AdminSession, options: { member: string }) {
  return store.removeMember(options.member);
}

export async function listParkedEvents({ db }: AdminSession, options: { schema: string }) {
  return { parked: await new Outbox(options.schema).listParked(db) };
}

export async function retryParkedEvents({ db }: AdminSession, options: { schema: string; event: string[] }) {
  return { retried: await new Outbox(options.schema).retryParked(db, options.event.length > 0 ? options.event : undefined) };
}

/** Used by `npm start`: a first organization and key for local development. */
export async function bootstrapDevelopment({ store, isProduction }: AdminSession) {
  if (isProduction) throw AppError.badRequest('dev bootstrap is not available when NODE_ENV=production');
  if ((await store.countOrganizations()) > 0) return { created: false };
  const organization = await store.createOrganization({ name: 'Development', plan: 250, addons: [] });
  const key = await store.createKey(organization.id, ['*']);
  return { created: true, organization, key };
}
