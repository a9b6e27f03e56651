export const MAX_SLUG_LENGTH = 63;
/** Keys every row already has; a field may not take them. */
export const RESERVED_FIELD_SLUGS: ReadonlySet<string> = new Set(['id', 'created_at', 'updated_at']);

/**
 * The contract's slug rule: NFKD, diacritics dropped, lowercase, spaces to `_`, anything outside
 * `[a-z0-9_]` dropped, runs of `_` collapsed, `_` trimmed at both ends, at most 63 characters.
 * Answers '' when nothing is left (a name in a script without Latin letters); see `slugOrIdSlug`.
 */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ /g, '_')
    .replace(/[^a-z0-9_]/g, '')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/_+$/, '');
}

/**
 * A name's slug, or, when its script leaves nothing (`名前`, `🚀`), `<prefix>_` and the first 8 hex
 * digits of the id, so a name in any script makes a table or a field.
 */
export function slugOrIdSlug(name: string, prefix: 't' | 'f', id: string): string {
  return slugify(name) || `${prefix}_${id.replace(/-/g, '').slice(0, 8)}`;
}
