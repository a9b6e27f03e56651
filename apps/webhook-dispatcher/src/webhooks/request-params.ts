import { validateInput } from '@platform/errors';

/** Checks a message's params against its contract class again: the service trusts no caller's shape. */
export function parseParams<T extends object>(type: new () => T, params: unknown): T {
  return validateInput(type, params ?? {});
}
