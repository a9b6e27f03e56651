/** Quotes a name we chose (a schema, a database) for SQL; anything outside lower-case snake case is refused. */
export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unsafe identifier: ${name}`);
  return `"${name}"`;
}
