import { IdentityChange } from '@contracts';
import { IdentityStore } from '@identity';
import { AppError } from '@platform/errors';
import { addonsOption, CliValues, emailOption, planOption, required, scopesOption, uuidOption } from '../cli-args';

export interface CommandContext {
  store: IdentityStore;
  values: CliValues;
  /** Tells running gateways to forget what they cached about a key or an organization. */
  announce: (change: IdentityChange) => Promise<void>;
  isProduction: boolean;
}

type Command = (context: CommandContext) => Promise<object>;

export const COMMANDS: Record<string, Command> = {
  'org create': ({ store, values }) =>
    store.createOrganization({ name: required(values, 'name'), plan: planOption(values) ?? 0, addons: addonsOption(values, 'addon') }),

  'org update': async ({ store, values, announce }) => {
    const org = await store.updateOrganization(uuidOption(values, 'org'), {
      plan: planOption(values),
      add: addonsOption(values, 'addon'),
      remove: addonsOption(values, 'remove-addon'),
    });
    await announce({ kind: 'org', orgId: org.id });
    return org;
  },

  'key create': ({ store, values }) => store.createKey(uuidOption(values, 'org'), scopesOption(values)),

  'key revoke': async ({ store, values, announce }) => {
    const revoked = await store.revokeKey(uuidOption(values, 'key-id'));
    await announce({ kind: 'key', keyId: revoked.id });
    return revoked;
  },

  'member invite': ({ store, values }) =>
    store.inviteMember(uuidOption(values, 'org'), emailOption(values), values.role?.trim() || 'member'),

  'member join': ({ store, values }) => store.joinMember(uuidOption(values, 'member')),

  'member remove': ({ store, values }) => store.removeMember(uuidOption(values, 'member')),

  /** Used by `npm start`: a first organization and key for local development. */
  'dev bootstrap': async ({ store, isProduction }) => {
    if (isProduction) throw AppError.badRequest('dev bootstrap is not available when NODE_ENV=production');
    if ((await store.countOrganizations()) > 0) return { created: false };
    const organization = await store.createOrganization({ name: 'Development', plan: 250, addons: [] });
    const key = await store.createKey(organization.id, ['*']);
    return { created: true, organization, key };
  },
};

export const USAGE = `usage: npm run --silent admin -- <command> [options]
  org create --name NAME [--plan USD] [--addon domains]
  org update --org ID [--plan USD] [--addon domains] [--remove-addon domains]
  key create --org ID [--scopes tables:read,tables:write,...]   (default *)
  key revoke --key-id ID
  member invite --org ID --email E [--role R]
  member join --member ID
  member remove --member ID`;
