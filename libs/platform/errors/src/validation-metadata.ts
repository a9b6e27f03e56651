import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * class-validator looks up a class's rules (its own and its ancestors') by walking every class it knows,
 * for every object it checks: a batch of 100 rows walked the whole contract 100 times, 6% of the gateway's
 * time. A class's rules are all declared when the class is, before anything is checked against it, so the
 * answer is kept per class and per set of options. Imported once, by validateInput, for its effect on
 * class-validator's one metadata storage.
 */
const storage = getMetadataStorage();
const lookUp = storage.getTargetValidationMetadatas.bind(storage);
/** What class-validator takes for a class: its constructor. */
type Target = Parameters<typeof storage.getTargetValidationMetadatas>[0];
const kept = new WeakMap<Target, Map<string, ValidationMetadata[]>>();

storage.getTargetValidationMetadatas = (target: Target, schema: string, always: boolean, strictGroups: boolean, groups?: string[]) => {
  const key = `${schema}|${always}|${strictGroups}|${groups?.join(',') ?? ''}`;
  let byOptions = kept.get(target);
  if (!byOptions) kept.set(target, (byOptions = new Map()));
  let rules = byOptions.get(key);
  if (!rules) byOptions.set(key, (rules = lookUp(target, schema, always, strictGroups, groups)));
  return rules;
};

/** The same rules grouped by property, once per kept list (class-validator only reads both). */
const groupBy = storage.groupByPropertyName.bind(storage);
const grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();
storage.groupByPropertyName = (rules: ValidationMetadata[]) => {
  let byProperty = grouped.get(rules);
  if (!byProperty) grouped.set(rules, (byProperty = groupBy(rules)));
  return byProperty;
};
