import { AppError } from '@platform/errors';
import type { Field } from '../fields/field';
import { SqlParameters } from '../filter/sql-parameters';
import { COLUMN_KINDS } from '../storage/column-types';
import { ident, qualified } from '../storage/identifiers';

export type SortOrder = 'asc' | 'desc';

const ID = ident('id');

/**
 * The order of a row list and the keyset conditions that resume it after a given row. The sort key goes
 * in its type's order, then the id, both in the asked direction, so each sort walks one btree index
 * (key, id) forwards or backwards and ties are stable across pages. Empty values come last ascending
 * and first descending (Postgres's NULL order, which keeps the index usable).
 */
export class RowOrder {
  readonly orderBy: string;
  /** The sort value of a row as exact Postgres text, for its cursor; text kinds keep only the indexed prefix. */
  readonly keyExpression: string;

  private constructor(
    private readonly column: string,
    private readonly terms: (expression: string) => string[],
    private readonly castType: string,
    private readonly nullable: boolean,
    private readonly descending: boolean,
  ) {
    this.orderBy = [...terms(column), ID].map((term) => `${term} ${descending ? 'DESC' : 'ASC'}`).join(', ');
    this.keyExpression = `${terms(column)[0]}::text`;
  }

  static of(sort: string | undefined, order: SortOrder | undefined, fields: readonly Field[]): RowOrder {
    const descending = order === 'desc';
    const key = sort ?? 'created_at';
    if (key === 'created_at' || key === 'updated_at') return new RowOrder(ident(key), (c) => [c], 'timestamptz', false, descending);
    const field = fields.find((candidate) => candidate.slug === key);
    if (!field) throw AppError.validation('sort', 'must be a field slug, created_at or updated_at');
    const kind = COLUMN_KINDS[field.fieldType];
    const collate = kind.sqlType.includes('COLLATE "C"') ? ' COLLATE "C"' : '';
    return new RowOrder(ident(field.column), kind.sortTerms, `${kind.castType}${collate}`, true, descending);
  }

  /**
   * WHERE conditions for the rows after (key, id), in the order they come: each is walked by the index on
   * its own, the second (the empty values, where they follow) only when the first runs out. A row
   * comparison on (key, id) is what lets the index start at the cursor, so a page costs the same at any
   * depth. Each condition adds its own bind values when it is built, as only one goes into a statement.
   */
  after(storageName: string, key: string | null, id: string): Array<(params: SqlParameters) => string> {
    const column = this.column;
    // Empty values are tested on the indexed expression (a text prefix is null exactly when its value is).
    const head = this.terms(column)[0];
    const beyond = this.descending ? '<' : '>';
    const empty = () => `${head} IS NULL`;
    const notEmpty = () => `${head} IS NOT NULL`;
    if (key === null) {
      const sameEmpty = (params: SqlParameters) => `${head} IS NULL AND ${ID} ${beyond} ${params.add(id)}::uuid`;
      return this.descending ? [sameEmpty, notEmpty] : [sameEmpty];
    }
    const resume = (params: SqlParameters) => {
      const idValue = `${params.add(id)}::uuid`;
      const keyValue = `(${params.add(key)}::${this.castType})`;
      let values = this.terms(keyValue);
      if (values.length > 1) {
        // Text kinds sort by (prefix, whole value): the whole value of the cursor's row is read back by id,
        // which keeps cursors short; if that row is gone, its prefix stands in (rows may repeat, none is skipped).
        values = [keyValue, `COALESCE((SELECT ${column} FROM ${qualified(storageName)} WHERE ${ID} = ${idValue}), ${keyValue})`];
      }
      return `(${[...this.terms(column), ID].join(', ')}) ${beyond} (${[...values, idValue].join(', ')})`;
    };
    return this.nullable && !this.descending ? [resume, empty] : [resume];
  }
}
