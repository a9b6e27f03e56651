import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';

export class ConfigError extends Error {
  constructor(readonly variable: string, reason: string) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

function describe(error: ValidationError): string {
  return Object.values(error.constraints ?? {}).join('; ') || 'is invalid';
}

/** Environment values are strings; a variable whose default is a number or boolean is read as one. */
function coerce(value: string, fallback: unknown): unknown {
  if (typeof fallback === 'number' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  if (typeof fallback === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/**
 * Reads the environment into a validated config class once, at start-up.
 * Unset or empty variables keep the class's defaults; a bad value throws a ConfigError naming it.
 */
export function loadConfig<T extends object>(type: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const defaults = new type() as Record<string, unknown>;
  const raw: Record<string, unknown> = { ...defaults };
  for (const key of Object.keys(defaults)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = coerce(value, defaults[key]);
  }
  const config = plainToInstance(type, raw, { exposeDefaultValues: true });
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length > 0) {
    const [first] = errors;
    throw new ConfigError(first.property, `${describe(first).replace(new RegExp(`^${first.property} `), '')} (got ${JSON.stringify(env[first.property] ?? null)})`);
  }
  return Object.freeze(config);
}
