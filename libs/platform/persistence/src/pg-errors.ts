import { AppError } from '@platform/errors';

/** The Postgres error codes (SQLSTATE) the services answer on their own terms. */
export const PgErrorCode = {
  UniqueViolation: '23505',
  ForeignKeyViolation: '23503',
  DeadlockDetected: '40P01',
  UndefinedTable: '42P01',
  UndefinedColumn: '42703',
  DuplicateDatabase: '42P04',
} as const;

export type PgErrorCode = (typeof PgErrorCode)[keyof typeof PgErrorCode];

/** The SQLSTATE of a failed statement, from `pg` directly or wrapped by TypeORM (migrations); undefined for anything else. */
export function pgErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, driverError } = error as { code?: unknown; driverError?: { code?: unknown } };
  const sqlState = driverError?.code ?? code;
  return typeof sqlState === 'string' && /^[0-9A-Z]{5}$/.test(sqlState) ? sqlState : undefined;
}

export function isPgError(error: unknown, ...codes: PgErrorCode[]): boolean {
  const code = pgErrorCode(error);
  return code !== undefined && (codes as string[]).includes(code);
}

/**
 * Runs `work`; a unique violation (of `constraint`, when named) becomes the contract's CONFLICT with
 * `message`. Two writers racing for one unique value: the loser hears the same answer as a later caller.
 */
export async function conflictOnUniqueViolation<T>(work: () => Promise<T>, message: string | (() => string), constraint?: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const violated = isPgError(error, PgErrorCode.UniqueViolation) && (!constraint || (error as { constraint?: string }).constraint === constraint);
    if (violated) throw AppError.conflict(typeof message === 'string' ? message : message());
    throw error;
  }
}
