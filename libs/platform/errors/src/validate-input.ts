// The ambient declaration travels with its one user, so any project that imports this type-checks alone.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- a global declaration file, not a module to import
/// <reference path="./class-transformer-storage.d.ts" />
import { jsonDataProperties } from '@contracts/vocabulary';
import { plainToInstance } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { validateSync } from 'class-validator';
import { AppError } from './app-error';
import './validation-metadata';
import { joinPath, validationErrorFrom } from './validation-errors';

type ContractClass = new () => object;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Constructors of values no contract class describes: a parameter or property typed with one carries no contract. */
export const NATIVE_TYPES: ReadonlySet<unknown> = new Set([String, Number, Boolean, Date, Array, Object]);

/** The contract class a property's objects become (its `@Type`), if any; a conversion to a native type is none. */
function nestedClass(type: ContractClass, property: string): ContractClass | undefined {
  const nested = defaultMetadataStorage.findTypeMetadata(type, property)?.typeFunction();
  return NATIVE_TYPES.has(nested) ? undefined : (nested as ContractClass | undefined);
}

/**
 * What the JSON's shape alone makes unreadable, with its path. class-transformer guesses the class of an
 * untyped object from its `constructor`, converts with its `toString`/`valueOf`, and silently drops keys
 * that name other Object members: JSON keys forge all of these (500s from inside the library, or unknown
 * properties let through). No contract declares such a property, so outside free-form JSON one is an
 * unknown property. And class-validator checks a list inside a list of contract objects item by item,
 * so `[[]]` would pass as a list of none: an item that is itself a list is refused here.
 */
function shapeProblem(value: unknown, type: ContractClass | undefined, path: string): { field: string; reason: string } | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      if (type && Array.isArray(value[i])) return { field: `${path}[${i}]`, reason: 'must be an object' };
      const found = shapeProblem(value[i], type, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  const free = type ? jsonDataProperties(type) : [];
  for (const key in value) {
    if (free.includes(key)) continue;
    if (key in Object.prototype) return { field: joinPath(path, key), reason: 'is not a known property' };
    const found = shapeProblem(value[key], type && nestedClass(type, key), joinPath(path, key));
    if (found) return found;
  }
  return undefined;
}

/**
 * The value without its free-form JSON properties, in it and its nested contract objects: class-transformer
 * would copy every value inside them, only for restoreJsonData to put the originals back.
 */
function withoutJsonData(value: unknown, type: ContractClass | undefined): unknown {
  if (Array.isArray(value)) return type ? value.map((item) => withoutJsonData(item, type)) : value;
  if (!type || !isPlainObject(value)) return value;
  const free = jsonDataProperties(type);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (!free.includes(key)) copy[key] = withoutJsonData(value[key], nestedClass(type, key));
  }
  return copy;
}

/** Puts the free-form JSON properties back exactly as sent, in the instance and its nested contract objects. */
function restoreJsonData(instance: object, plain: Record<string, unknown>): void {
  const target = instance as Record<string, unknown>;
  const free = jsonDataProperties(instance.constructor as ContractClass);
  for (const key of free) {
    if (Object.hasOwn(plain, key)) target[key] = plain[key];
  }
  for (const key in target) {
    if (free.includes(key)) continue;
    const child = target[key];
    const sent = plain[key];
    if (Array.isArray(child) && Array.isArray(sent)) {
      child.forEach((item, i) => isContractObject(item) && isPlainObject(sent[i]) && restoreJsonData(item, sent[i]));
    } else if (isContractObject(child) && isPlainObject(sent)) {
      restoreJsonData(child, sent);
    }
  }
}

/** An instance class-transformer built from a nested contract class (plain copies keep Object). */
function isContractObject(value: unknown): value is object {
  return isPlainObject(value) && typeof value.constructor === 'function' && value.constructor !== Object;
}

/**
 * Checks a JSON value against its contract class, refusing unknown properties by name; answers the
 * instance, or throws the VALIDATION_ERROR that names the first offending field. No shape of input
 * makes it throw anything else.
 */
export function validateInput<T extends object>(type: new () => T, value: unknown): T {
  if (!isPlainObject(value)) throw AppError.validation('body', 'must be a JSON object');
  const problem = shapeProblem(value, type, '');
  if (problem) throw AppError.validation(problem.field, problem.reason);
  const instance = plainToInstance(type, withoutJsonData(value, type), { exposeDefaultValues: true });
  restoreJsonData(instance, value);
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false });
  if (errors.length > 0) throw validationErrorFrom(errors);
  return instance;
}
