import type { ValidationError } from 'class-validator';
import { AppError } from './app-error';

/** Joins a property onto a path: `fields` + `2` -> `fields[2]`, `data` + `amount` -> `data.amount`. */
export function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

function firstLeaf(error: ValidationError, path: string): { field: string; reason: string } {
  const field = joinPath(path, error.property);
  if (error.constraints) {
    // class-validator runs a property's checks from the decorator nearest it upwards, so the last one that
    // failed was written first: the type check (`@IsString`, `@IsInt`) before the bounds that assume it.
    const reasons = Object.values(error.constraints);
    return { field, reason: reasons[reasons.length - 1] };
  }
  const child = error.children?.[0];
  return child ? firstLeaf(child, field) : { field, reason: 'is invalid' };
}

/** class-validator's tree -> one VALIDATION_ERROR that names the first offending field by its full path. */
export function validationErrorFrom(errors: ValidationError[], rootPath = ''): AppError {
  if (errors.length === 0) return AppError.validation(rootPath || 'body', 'is invalid');
  const { field, reason } = firstLeaf(errors[0], rootPath);
  return AppError.validation(field, reason.replace(/^\S+ /, '') || reason);
}
