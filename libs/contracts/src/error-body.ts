/** Mirrors the wire shape of an error; the vocabulary itself lives in @platform/errors. */
export interface ErrorBody {
  code: string;
  message: string;
  details?: object;
}
