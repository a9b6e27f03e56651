import { AppError } from './app-error';
import { joinPath } from './validation-errors';

const NUL = 'must not contain a NUL character (\\u0000)';
const LONE_SURROGATE = 'must not contain an unpaired UTF-16 surrogate';
const NON_FINITE = 'must be a finite number';
const BAD_KEY = 'has a property name with a NUL character or an unpaired UTF-16 surrogate';

interface Problem {
  /** Keys and indexes from the root down to the offending value, gathered on the way back up. */
  segments: (string | number)[];
  reason: string;
}

function within(segment: string | number, problem: Problem): Problem {
  problem.segments.unshift(segment);
  return problem;
}

function stringProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL;
  if (!text.isWellFormed()) return LONE_SURROGATE;
  return undefined;
}

/**
 * Strings can only hold a NUL or a lone surrogate through a `\u` escape in the JSON text, so callers
 * that still have the text skip the string checks when it has none.
 */
function find(value: unknown, strings: boolean): Problem | undefined {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? undefined : { segments: [], reason: NON_FINITE };
    case 'string': {
      const reason = strings ? stringProblem(value) : undefined;
      return reason ? { segments: [], reason } : undefined;
    }
    case 'object':
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i += 1) {
          const problem = find(value[i], strings);
          if (problem) return within(i, problem);
        }
        return undefined;
      }
      for (const key in value) {
        if (strings && stringProblem(key)) return { segments: [], reason: BAD_KEY };
        const problem = find((value as Record<string, unknown>)[key], strings);
        if (problem) return within(key, problem);
      }
      return undefined;
    default:
      return undefined;
  }
}

function pathOf(root: string, segments: (string | number)[]): string {
  const path = segments.reduce<string>((parent, segment) => (typeof segment === 'number' ? `${parent}[${segment}]` : joinPath(parent, segment)), root);
  return path || 'body';
}

/**
 * JSON can carry what no stored value can: a NUL (Postgres text refuses it), an unpaired surrogate (UTF-8
 * has no form for it) and, through overflow like `1e999`, an infinite number. Each is a VALIDATION_ERROR
 * naming its path under `root`. One pass, allocating only when it finds something.
 */
export function assertStorableJson(value: unknown, root = '', jsonText?: string): void {
  const problem = find(value, jsonText === undefined || jsonText.includes('\\u'));
  if (problem) throw AppError.validation(pathOf(root, problem.segments), problem.reason);
}
