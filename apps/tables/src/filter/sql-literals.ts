import pg from 'pg';
import { SqlParameters } from './sql-parameters';

/** node-postgres's own conversion of a bind value to the text it sends (exported, not in its type declarations). */
const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils;

/**
 * Hands out each value as an escaped SQL literal instead of a `$n` placeholder, for the one kind of
 * statement that cannot take bind values: `COPY (SELECT ...) TO STDOUT` (an export). The literal is the
 * text a bind value would have carried (arrays and dates as node-postgres sends them), untyped like one,
 * so the compiled SQL means the same with either.
 */
export class SqlLiterals extends SqlParameters {
  override add(value: unknown): string {
    if (value === null || value === undefined) return 'NULL';
    return pg.escapeLiteral(String(prepareValue(value)));
  }
}
