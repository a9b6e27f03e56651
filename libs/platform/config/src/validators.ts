import { IsInt, IsNumber, Max, Min, registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import ipaddr from 'ipaddr.js';
import { parseDuration, parseDurationList } from './durations';

/** A config rule whose test may read the other settings of the config object being validated. */
function define(name: string, test: (value: unknown, config: Record<string, unknown>) => boolean, message: string, options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: { message, ...options },
      validator: { validate: (value: unknown, args: ValidationArguments) => test(value, args.object as Record<string, unknown>) },
    });
}

/** Checks applied in the order a stack of them written over a setting would apply (the last first), so a refusal reads the same. */
function stacked(...checks: PropertyDecorator[]): PropertyDecorator {
  return (target, property) => checks.reduceRight<void>((_, check) => check(target, property), undefined);
}

/** A whole number from `min` to `max`, the rule of most numeric settings. */
export const IsIntBetween = (min: number, max: number) => stacked(IsInt(), Min(min), Max(max));

/** A number, fractions allowed, from `min` to `max`. */
export const IsNumberBetween = (min: number, max: number) => stacked(IsNumber(), Min(min), Max(max));

export const IsUrlWithScheme = (schemes: string[], options?: ValidationOptions) =>
  define(
    'isUrlWithScheme',
    (value) =>
      typeof value === 'string' &&
      value.split(',').every((part) => {
        try {
          return schemes.includes(new URL(part.trim()).protocol.replace(/:$/, ''));
        } catch {
          return false;
        }
      }),
    `must be a URL with scheme ${schemes.join(' or ')}`,
    options,
  );

function comparedToSetting(name: string, other: string, holds: (value: number, limit: number) => boolean, message: string, options?: ValidationOptions) {
  return define(name, (value, config) => typeof value === 'number' && holds(value, Number(config[other])), message, options);
}

/** A number no smaller than another setting of the same config (a ceiling above its floor). */
export const IsAtLeastSetting = (other: string, options?: ValidationOptions) =>
  comparedToSetting('isAtLeastSetting', other, (value, limit) => value >= limit, `must be at least ${other}`, options);

/** A number no larger than another setting of the same config (a part of a budget within it). */
export const IsAtMostSetting = (other: string, options?: ValidationOptions) =>
  comparedToSetting('isAtMostSetting', other, (value, limit) => value <= limit, `must be at most ${other}`, options);

export const IsDuration = (options?: ValidationOptions) =>
  define('isDuration', (v) => typeof v === 'string' && parseDuration(v) !== undefined, 'must be a duration like 500ms, 30s, 5m, 72h', options);

export const IsDurationList = (options?: ValidationOptions) =>
  define('isDurationList', (v) => typeof v === 'string' && parseDurationList(v) !== undefined, 'must be a comma list of durations like 1m,5m,30m', options);

/** The entries of a comma list setting, trimmed, empty ones dropped. */
export function commaList(value: string): string[] {
  return value.split(',').map((part) => part.trim()).filter(Boolean);
}

/** A comma list of CIDRs (`10.0.0.0/8`, `fd00::/8`) or single addresses; empty is an empty list. */
export const IsCidrList = (options?: ValidationOptions) =>
  define(
    'isCidrList',
    (v) => typeof v === 'string' && commaList(v).every((entry) => ipaddr.isValidCIDR(entry) || ipaddr.isValid(entry)),
    'must be a comma list of CIDRs or addresses like 10.0.0.0/8,192.168.1.10',
    options,
  );

/**
 * A config rule that depends on whether the process runs in production (NODE_ENV=production, read from
 * the config object being validated), as secrets and placeholders do. The message never echoes the value.
 */
export function ProductionRule(name: string, message: string, test: (value: unknown, production: boolean) => boolean, options?: ValidationOptions) {
  return define(name, (value, config) => test(value, config.NODE_ENV === 'production'), message, options);
}

/**
 * A development placeholder (a mail host of example.net, say) that a production deployment must
 * replace with its own value: refused when NODE_ENV=production, like a missing secret.
 */
export const IsReplacedInProduction = (developmentDefault: string, options?: ValidationOptions) =>
  ProductionRule(
    'isReplacedInProduction',
    `must be set when NODE_ENV=production (${developmentDefault} is a development placeholder)`,
    (value, production) => !production || value !== developmentDefault,
    options,
  );
