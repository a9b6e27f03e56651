import { Exclude } from 'class-transformer';

const JSON_DATA = Symbol('contract:json-data');

/**
 * Marks a property that holds free-form JSON (row values keyed by slug, type-specific options). The
 * validator hands it over exactly as sent: class-transformer would rebuild it, dropping keys such as
 * `constructor` (a legitimate field slug) and guessing classes from them.
 */
export function JsonData(): PropertyDecorator {
  const exclude = Exclude({ toClassOnly: true });
  return (target, property) => {
    const inherited: readonly (string | symbol)[] = Reflect.getMetadata(JSON_DATA, target) ?? [];
    Reflect.defineMetadata(JSON_DATA, [...inherited, property], target);
    exclude(target, property);
  };
}

/** The free-form JSON properties of a contract class, its ancestors' included. */
export function jsonDataProperties(type: abstract new (...args: never[]) => unknown): readonly string[] {
  return Reflect.getMetadata(JSON_DATA, type.prototype) ?? [];
}
