import { Resolver } from 'node:dns';
import { registerDecorator } from 'class-validator';
import { normalizeHostname } from './domain/hostname';

function define(name: string, test: (value: unknown) => boolean, message: string) {
  return (target: object, propertyName: string) =>
    registerDecorator({ name, target: target.constructor, propertyName, options: { message }, validator: { validate: test } });
}

/** Node's own parser decides what a server entry may look like (`1.2.3.4`, `1.2.3.4:53`, `[::1]:53`). */
function isDnsServerList(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const servers = value.split(',').map((part) => part.trim()).filter(Boolean);
  try {
    new Resolver().setServers(servers);
    return true;
  } catch {
    return false;
  }
}

export const IsDnsServerList = () => define('isDnsServerList', isDnsServerList, 'must be a comma list of ip or ip:port');

export const IsHostname = () =>
  define('isHostname', (value) => typeof value === 'string' && normalizeHostname(value).ok, 'must be a hostname such as mx.mail.example.net');
