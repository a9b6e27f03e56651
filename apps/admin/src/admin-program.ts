import { SCOPES } from '@contracts/vocabulary';
import { AppError } from '@platform/errors';
import { OUTBOX_SCHEMAS } from '@platform/runner';
import { Command, CommanderError, Option } from 'commander';
import { AdminSession, inAdminSession } from './admin-session';
import { addon, ADDONS, email, outboxSchema, plan, scopes, text, uuid } from './cli-options';
import * as commands from './commands/commands';

/** Commander's own refusals (a missing or unknown option, an unknown command) in the error vocabulary. */
function refusal(error: CommanderError, command: Command): AppError {
  if (error.code === 'commander.missingMandatoryOptionValue') {
    const missing = command.options.find((option) => option.mandatory && command.getOptionValue(option.attributeName()) === undefined);
    return AppError.validation(missing?.long ?? 'options', 'is required');
  }
  return AppError.badRequest(error.message.replace(/^error: /, ''));
}

/** Help asked for (exit 0) or shown for an incomplete command line (exit 1) is commander's to print. */
function helpShown(error: CommanderError): boolean {
  return error.exitCode === 0 || error.code === 'commander.help';
}

/** A command that writes its answer as one JSON object on stdout. */
function leaf<O>(group: Command, name: string, description: string, run: (session: AdminSession, options: O) => Promise<object>): Command {
  const command = group.command(name).description(description);
  return command
    .exitOverride((error) => {
      if (!helpShown(error)) throw refusal(error, command);
    })
    .action(async (options: O) => {
      const result = await inAdminSession((session) => run(session, options));
      process.stdout.write(`${JSON.stringify(result)}\n`);
    });
}

/** An option naming one record by its id (`--org <id>`), refused unless a UUID; required unless said otherwise. */
function idOption(flag: string, description: string, presence: 'required' | 'optional' = 'required'): Option {
  return new Option(`${flag} <id>`, description).argParser(uuid(flag)).makeOptionMandatory(presence === 'required');
}

/** Whose outbox a command reads or changes. */
const outboxOption = () => new Option('--schema <schema>', `whose outbox (${OUTBOX_SCHEMAS.join(', ')})`).argParser(outboxSchema).makeOptionMandatory();

/** `admin <group> <command> [options]`: organizations, API keys and members, each answering one JSON object. */
export function adminProgram(): Command {
  const program = new Command('admin')
    .description('Operates organizations, API keys and members in the gateway database (DATABASE_URL).')
    // Refusals leave as JSON on stderr (main.ts); commander's own text would be a second, different answer.
    .configureOutput({ outputError: () => undefined })
    .exitOverride((error) => {
      if (!helpShown(error)) throw refusal(error, program);
    });

  const org = program.command('org').description('organizations');
  leaf(org, 'create', 'create an organization; prints {"id","name","plan","addons"}', commands.createOrganization)
    .requiredOption('--name <name>', 'its name', text('--name'))
    .option('--plan <usd>', 'plan price in USD per month (250 or more includes domains)', plan, 0)
    .option('--addon <addon>', `add-on to enable, repeatable (${ADDONS.join(', ')})`, addon('--addon'), []);
  leaf(org, 'list', 'list every organization; prints {"organizations":[{"id","name","plan","addons","created_at","active_keys"}]}', commands.listOrganizations);
  leaf(org, 'update', "change an organization's plan or add-ons", commands.updateOrganization)
    .addOption(idOption('--org', 'organization id'))
    .option('--plan <usd>', 'new plan price in USD per month', plan)
    .option('--addon <addon>', 'add-on to enable, repeatable', addon('--addon'), [])
    .option('--remove-addon <addon>', 'add-on to disable, repeatable', addon('--remove-addon'), []);

  const key = program.command('key').description('API keys');
  leaf(key, 'create', 'issue an API key; prints {"id","key","scopes"} (the key is shown only here)', commands.createKey)
    .addOption(idOption('--org', 'organization id'))
    .addOption(new Option('--scopes <list>', `comma-separated scopes: * or ${SCOPES.join(', ')}`).argParser(scopes).default(['*'], '*'));
  leaf(key, 'list', 'list keys, never their secret; prints {"keys":[{"id","organization_id","prefix","scopes","created_at","last_used_at","revoked_at"}]}', commands.listKeys).addOption(
    idOption('--org', "only this organization's keys", 'optional'),
  );
  leaf(key, 'revoke', 'revoke an API key at once', commands.revokeKey).addOption(idOption('--key-id', 'API key id'));

  const member = program.command('member').description('members of an organization (each change emits a member.* event)');
  leaf(member, 'invite', 'invite a member; emits member.invited', commands.inviteMember)
    .addOption(idOption('--org', 'organization id'))
    .requiredOption('--email <email>', 'their email address', email)
    .option('--role <role>', 'their role', text('--role'), 'member');
  leaf(member, 'join', 'mark an invited member as joined; emits member.joined', commands.joinMember).addOption(idOption('--member', 'member id'));
  leaf(member, 'remove', 'remove a member; emits member.removed', commands.removeMember).addOption(idOption('--member', 'member id'));

  const outbox = program.command('outbox').description('events a relay set aside because they could not be published');
  leaf(outbox, 'parked', 'list the events set aside; prints {"parked":[{"id","subject","error","parked_at"}]}', commands.listParkedEvents).addOption(outboxOption());
  leaf(outbox, 'retry', 'put events set aside back in the outbox for the relay to publish; prints {"retried":[ids]}', commands.retryParkedEvents)
    .addOption(outboxOption())
    .option('--event <id>', 'only this event, repeatable (all of them when omitted)', (value: string, previous: string[]) => [...previous, uuid('--event')(value)], []);

  const dev = program.command('dev').description('local development');
  leaf(dev, 'bootstrap', 'on an empty database outside production: a Development organization and a key with scope *', commands.bootstrapDevelopment);
  return program;
}
