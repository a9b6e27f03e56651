import { Resolver } from 'node:dns';
import { registerDecorator } from 'class-validator';
import { commaList, parseDuration, parseDurationList } from '@platform/config';
import { normalizeHostname } from './domain/hostname';

function define(name: string, test: (value: unknown) => boolean, message: string) {
  return (target: object, propertyName: string) =>
    registerDecorator({ name, target: target.constructor, propertyName, options: { message }, validator: { validate: test } });
}

/** Node's own parser decides what a server entry may look like (`1.2.3.4`, `1.2.3.4:53`, `[::1]:53`). */
function isDnsServerList(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const servers = commaList(value);
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

/** Delays after creation: each later than the one before, so the re-checks move forward in time. */
function isRecheckSchedule(value: unknown): boolean {
  const delays = typeof value === 'string' ? parseDurationList(value) : undefined;
  return !!delays && delays[0] > 0 && delays.every((delay, i) => i === 0 || delay > delays[i - 1]);
}

export const IsRecheckSchedule = () =>
  define('isRecheckSchedule', isRecheckSchedule, 'must be a comma list of increasing durations like 1m,5m,15m,1h');

export const IsPositiveDuration = () =>
  define('isPositiveDuration', (value) => typeof value === 'string' && (parseDuration(value) ?? 0) > 0, 'must be a duration above zero like 30s, 5m, 24h');
