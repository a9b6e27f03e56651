/**
 * The rows list's filter grammar as types: for a table whose row data the caller describes, a filter
 * names only its fields and gives each operator an operand of the field's type.
 *
 *     type Deal = { name: string; amount: number; stage: string; tags: string[] };
 *     const filter = rowFilter<Deal>({ amount: { gte: 100 }, or: [{ stage: 'won' }, { tags: { contains: 'vip' } }] });
 */

/** The operators a value of type V takes. */
export type Operators<V> = V extends readonly (infer Item)[]
  ? { contains?: Item; is_empty?: boolean; eq?: V; ne?: V }
  : {
      eq?: V;
      ne?: V;
      in?: V[];
      nin?: V[];
      is_empty?: boolean;
    } & (V extends number | string ? { gt?: V; gte?: V; lt?: V; lte?: V } : object) &
      (V extends string ? { contains?: string; starts_with?: string } : object);

/** A condition on one value: the value itself (equality), or operators that must all match. */
export type Condition<V> = (V extends readonly unknown[] ? never : V) | Operators<V>;

/** A filter over rows whose `data` has the shape `Data`: every key given must match. */
export type RowFilter<Data extends object> = {
  [Slug in keyof Data & string]?: Condition<NonNullable<Data[Slug]>>;
} & {
  created_at?: Condition<string>;
  updated_at?: Condition<string>;
  and?: RowFilter<Data>[];
  or?: RowFilter<Data>[];
};

/** The `filter` query value (JSON) of a typed filter. */
export function rowFilter<Data extends object>(filter: RowFilter<Data>): string {
  return JSON.stringify(filter);
}

