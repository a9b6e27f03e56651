import { generateSchema, type ReferenceObject, type SchemaObject } from '@nestjs/swagger';

/** A schema as OpenAPI 3.1 and JSON Schema 2020-12 write it (`type` may list `'null'`). */
export type JsonSchema = { [key: string]: unknown };

const COMPONENT_REF = '#/components/schemas/';

/**
 * One schema written by @nestjs/swagger (OpenAPI 3.0: `nullable: true` beside a `type`) rewritten as
 * OpenAPI 3.1 and JSON Schema 2020-12 say it (`'null'` among the types, or one more alternative beside a
 * reference), with every schema inside it rewritten the same way. `refs` rewrites each `$ref`.
 */
export function toJsonSchema(schema: SchemaObject | ReferenceObject, refs: (ref: string) => string = (ref) => ref): JsonSchema {
  if ('$ref' in schema) return { ...schema, $ref: refs(schema.$ref) };
  const { nullable, ...rest } = schema as SchemaObject & { nullable?: boolean };
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(rest)) out[key] = rewriteInner(key, value, refs);
  if (!nullable) return out;
  if (typeof out.type === 'string' && !out.allOf && !out.oneOf && !out.anyOf) {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return out;
  }
  // A nullable reference (swagger writes `type: object` with `allOf: [$ref]`): the value or null.
  const { description, type: _type, ...value } = out;
  return { ...(description === undefined ? {} : { description }), anyOf: [value, { type: 'null' }] };
}

function rewriteInner(key: string, value: unknown, refs: (ref: string) => string): unknown {
  const isSchema = (candidate: unknown): candidate is SchemaObject => typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate);
  if (['items', 'additionalProperties', 'not'].includes(key) && isSchema(value)) return toJsonSchema(value, refs);
  if (['allOf', 'oneOf', 'anyOf'].includes(key) && Array.isArray(value)) return value.map((item: SchemaObject) => toJsonSchema(item, refs));
  if (key === 'properties' && isSchema(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, property]) => [name, toJsonSchema(property as SchemaObject, refs)]));
  }
  return value;
}

/**
 * The JSON Schema (2020-12) of a contract class, from its @ApiProperty decorators: the classes it refers
 * to, and `models` (classes its raw schemas name by `getSchemaPath`), are under `$defs`.
 */
export function jsonSchemaOf(target: abstract new () => unknown, models: ReadonlyArray<abstract new () => unknown> = []): JsonSchema {
  let schemas: Record<string, SchemaObject> = {};
  for (const model of models) schemas = generateSchema(model as new () => unknown, schemas).schemas;
  schemas = generateSchema(target as new () => unknown, schemas).schemas;
  const used = new Set<string>();
  const collect = (schema: unknown): void => {
    if (typeof schema !== 'object' || schema === null) return;
    const ref = (schema as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith(COMPONENT_REF)) {
      const name = ref.slice(COMPONENT_REF.length);
      if (used.has(name)) return;
      used.add(name);
      collect(schemas[name]);
    }
    for (const inner of Object.values(schema)) collect(inner);
  };
  collect(schemas[target.name]);
  const toDefs = (ref: string) => (ref.startsWith(COMPONENT_REF) ? `#/$defs/${ref.slice(COMPONENT_REF.length)}` : ref);
  const root = toJsonSchema(schemas[target.name], toDefs);
  if (used.size === 0) return root;
  return { ...root, $defs: Object.fromEntries([...used].sort().map((name) => [name, toJsonSchema(schemas[name], toDefs)])) };
}
