/** Collects bind values and hands out their `$n` placeholders: user values never enter SQL text. */
export class SqlParameters {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
