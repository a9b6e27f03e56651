import { AppError, ErrorCode } from '@platform/errors';
import { isPgError, PgErrorCode } from '@platform/persistence';
import { fieldUniqueIndexName } from '../storage/identifiers';
import type { UserTable } from '../tables/user-table';

/**
 * Runs a row write; a value that an `is_unique` field's index refuses (another row, or another item of
 * the same batch, holds it) becomes the contract's CONFLICT naming `data.<slug>`. The index decides, so
 * two concurrent writers of one value cannot both succeed.
 */
export async function withUniqueValues<T>(table: UserTable, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const constraint = isPgError(error, PgErrorCode.UniqueViolation) ? (error as { constraint?: string }).constraint : undefined;
    const field = constraint ? table.fields.find((candidate) => fieldUniqueIndexName(candidate.id) === constraint) : undefined;
    if (!field) throw error;
    throw new AppError(ErrorCode.Conflict, `Another row already has this value of ${field.slug}`, { field: `data.${field.slug}`, reason: 'must be unique in this table' });
  }
}
