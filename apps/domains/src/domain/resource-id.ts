import { isUuid } from '@contracts';
import { AppError } from '@platform/errors';

/** The gateway already refuses non-UUID ids; checked again so a bad id never reaches Postgres as a 500. */
export function resourceId(value: unknown, what: string): string {
  if (!isUuid(value)) throw AppError.notFound(what);
  return value.toLowerCase();
}

export function isUniqueViolation(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string }; code?: string }) ?? {};
  return (driverError.driverError?.code ?? driverError.code) === '23505';
}
