/** Character codes a scan of JSON text looks for. */
export const QUOTE = 34;
const BACKSLASH = 92;

/** The index of the quote that closes the JSON string opening at `start`, or the text's length if none does. */
export function closingQuote(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (char === BACKSLASH) i += 1;
    else if (char === QUOTE) return i;
  }
  return text.length;
}
