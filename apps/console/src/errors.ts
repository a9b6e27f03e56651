import { ApiError } from '@org-data-platform/sdk';

/** An error as the console shows it: the API's own code and message, and the input it names. */
export interface ShownError {
  status?: number;
  code?: string;
  message: string;
  /** For a VALIDATION_ERROR or CONFLICT: the path of the input (`data.amount`, `schedules[1].end_time`). */
  field?: string;
}

export function shownError(error: unknown): ShownError {
  if (error instanceof ApiError) {
    const field = typeof error.details?.field === 'string' ? error.details.field : undefined;
    return { status: error.status, code: error.code, message: error.message, ...(field ? { field } : {}) };
  }
  if (error instanceof Error) return { message: error.message };
  return { message: String(error) };
}

/** One line: `403 FORBIDDEN: This API key lacks the tables:write scope (field data.amount)`. */
export function describe(error: ShownError): string {
  const head = error.status ? `${error.status} ${error.code ?? ''}`.trim() + ': ' : '';
  return `${head}${error.message}${error.field && !error.message.includes(error.field) ? ` (${error.field})` : ''}`;
}
