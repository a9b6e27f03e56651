/**
 * JSON texts (each one complete JSON value) as one JSON array text, for a statement that reads them back
 * with `json_array_elements($n::json) WITH ORDINALITY`: the `json` type keeps each element's text exactly
 * as written. Cheaper than a `text[]` or `json[]` parameter, which escapes every quote and backslash of
 * every text into an array literal.
 */
export function jsonTexts(texts: readonly string[]): string {
  return `[${texts.join(',')}]`;
}
