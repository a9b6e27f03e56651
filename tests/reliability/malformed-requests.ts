import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { openApiDocument } from '@platform/testing';

/** The ids of the seeded organization's resources, by path parameter name. */
export type SeededIds = Record<string, string>;

export interface FuzzRequest {
  method: string;
  /** Relative to /v1, query included. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Why this request must be refused when it would change something (empty for reads). */
  defect: string;
}

interface Operation {
  method: string;
  template: string;
  pathParams: string[];
  queryParams: string[];
  bodyProperties: string[] | undefined;
}

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** Every operation of openapi.json, with what it takes. */
export function documentedOperations(): Operation[] {
  const document = openApiDocument() as any;
  return Object.entries(document.paths).flatMap(([template, item]: [string, any]) =>
    Object.entries(item).map(([method, operation]: [string, any]) => {
      const ref: string | undefined = operation.requestBody?.content?.['application/json']?.schema?.$ref;
      const schema = ref ? document.components.schemas[ref.split('/').pop() as string] : undefined;
      return {
        method: method.toUpperCase(),
        template: template.replace(/^\/v1/, ''),
        pathParams: (operation.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name),
        queryParams: (operation.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name),
        bodyProperties: schema ? Object.keys(schema.properties ?? {}) : undefined,
      };
    }),
  );
}

const SQL_AND_PATH_FRAGMENTS = [
  "' OR 1=1 --", '"; DROP TABLE rows; --', "1); DELETE FROM tables.tables; --", "n' || pg_sleep(10) || '",
  '$.data[*]', "data->>'n'", 'data #> \'{a,b}\'', '$..*', '@.n > 1', '__proto__', 'constructor', 'prototype',
  '%', '_', '\\', '\u0000', '\u202e', 'id', 'created_at desc', 'n; SELECT 1', '*', '..', '${jndi:ldap://x}',
];

/** Percent-encodes every byte of the UTF-8 form: safe for any string, lone surrogates included. */
function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

const odd = fc.constantFrom(
  ...SQL_AND_PATH_FRAGMENTS.map(encodeURIComponent),
  '%FF', '%C3%28', '%ED%A0%80', '%00', '%2e%2e%2f', '..%2F..%2Fetc%2Fpasswd', '-1', '0', '99999999999999999999999', '1e309', 'null',
  'undefined', 'NaN', '00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', 'a'.repeat(5_000),
  '%7B%22a%22%3A1%7D', '%5B%5D', encodeURIComponent('😀'.repeat(50)),
);

/** A path id that names nothing of the seeded organization: never a way to change its data. */
const foreignId = fc.oneof(fc.constant(null).map(() => randomUUID()), fc.uuid().map((id) => id.toUpperCase()), odd, fc.string({ unit: 'binary', maxLength: 40 }).map(percentEncode));

function deepJson(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

const hugeOrOddValue = fc.oneof(
  fc.constantFrom<unknown>(1e308, -1e308, 2 ** 53 + 1, -0, 'a'.repeat(200_000), '', ' ', '\u0000', '\ud800', Array(10_000).fill(1), {}, [], null, true),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom<unknown>(...SQL_AND_PATH_FRAGMENTS),
  fc.jsonValue({ maxDepth: 4 }),
  fc.double(),
  fc.integer(),
);

/** A JSON object body whose keys include at least one the operation does not know: always a VALIDATION_ERROR. */
function bodyWithUnknownProperty(known: string[]) {
  const unknownKey = fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), fc.constantFrom('__proto__x', 'constructor', 'id', 'organization_id', 'secret', 'row_count'))
    .filter((key) => !known.includes(key));
  return fc
    .tuple(unknownKey, hugeOrOddValue, fc.dictionary(fc.constantFrom(...(known.length ? known : ['x'])), hugeOrOddValue, { maxKeys: 3 }))
    .map(([key, value, knownMutations]) => ({ text: JSON.stringify({ ...knownMutations, [key]: value }), defect: `unknown property ${JSON.stringify(key).slice(0, 40)}` }));
}

/** JSON that no field can store (NUL, lone surrogates, numbers that overflow) or keys naming Object members. */
const UNSTORABLE_JSON = [
  '"a\\u0000b"', '"\\ud800"', '"x\\udfff"', '1e999', '-1e400', '[1, 1e999]', '{"title": "\\u0000"}', '{"n": 1e999}', '[{"title": "\\udbff"}]',
  '{"constructor": 1}', '{"constructor": {"name": "x"}}', '[{"toString": 1}]', '{"valueOf": "x", "hasOwnProperty": 1}', '{"nested": {"constructor": []}}',
];

/** A body of known properties only, one of which holds unstorable JSON: always refused, by the gateway or the service. */
function bodyWithUnstorableValue(known: string[]) {
  return fc
    .tuple(fc.constantFrom(...(known.length ? known : ['x'])), fc.constantFrom(...UNSTORABLE_JSON), fc.dictionary(fc.constantFrom(...(known.length ? known : ['x'])), hugeOrOddValue, { maxKeys: 3 }))
    .map(([key, poison, others]) => ({
      // JSON.stringify cannot write these, so the value is spliced into the text.
      text: JSON.stringify({ ...others, [key]: 0.5 }).replace(`${JSON.stringify(key)}:0.5`, `${JSON.stringify(key)}:${poison}`),
      defect: `unstorable ${key}: ${poison}`,
    }));
}

/** Bodies no operation can accept, whatever it expects. */
const unacceptableBody = fc.oneof(
  fc.constantFrom(
    { text: '{', defect: 'truncated JSON' },
    { text: '{"name": "x",}', defect: 'trailing comma' },
    { text: "{'name': 'x'}", defect: 'single quotes' },
    { text: 'null', defect: 'null body' },
    { text: '[]', defect: 'array body' },
    { text: '"text"', defect: 'string body' },
    { text: '12', defect: 'number body' },
    { text: deepJson(5_000), defect: 'nested 5000 deep' },
    { text: '['.repeat(100_000) + ']'.repeat(100_000), defect: 'arrays nested 100000 deep' },
    { text: JSON.stringify({ pad: 'x'.repeat(1_100_000) }), defect: 'body over 1 MiB' },
    { text: '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}', defect: 'prototype pollution keys' },
  ),
  fc.jsonValue({ maxDepth: 3 }).filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)).map((v) => ({ text: JSON.stringify(v), defect: 'not an object' })),
);

/** Invalid UTF-8 bytes inside an otherwise well-formed body whose key is unknown. */
const badUtf8Body = fc.constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc0, 0xaf]).map((bytes) => ({
  raw: Buffer.concat([Buffer.from('{"bad_'), Buffer.from(bytes), Buffer.from('": "'), Buffer.from(bytes), Buffer.from('"}')]),
  defect: `bad UTF-8 ${Buffer.from(bytes).toString('hex')}`,
}));

const badContentType = fc.constantFrom(
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=latin1', 'application/json; charset=utf-16',
  'application/json; boundary=x', 'application/jsonx', '*/*', '',
);

const filterValue = fc.oneof(
  fc.constantFrom(...SQL_AND_PATH_FRAGMENTS),
  fc.constantFrom(
    '{"n": {"gt": {"lt": 1}}}', '{"n": {"in": "x"}}', '{"n": {"$where": "1"}}', '{"and": {}}', '{"or": [[]]}', '{"title": {"contains": "%_\\\\"}}',
    '{"created_at": {"gt": "yesterday"}}', '{"n": 1e400}', '{"__proto__": {"n": 1}}', '{"title": {"is_empty": "yes"}}',
    '{"n": {"eq": [1, 2]}}', '{"data->>\'n\'": 1}', '{"n; DROP TABLE x": 1}', deepJson(2_000), '{"and": [' + '{"or": ['.repeat(300) + ']}'.repeat(300) + ']}',
  ),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.dictionary(fc.constantFrom('title', 'n', 'day', 'status', 'done', 'and', 'or', 'created_at', 'nope'), fc.oneof(hugeOrOddValue, fc.dictionary(fc.constantFrom('eq', 'ne', 'gt', 'in', 'nin', 'contains', 'starts_with', 'is_empty', 'regex'), hugeOrOddValue, { maxKeys: 2 })), { maxKeys: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

const queryValue = fc.oneof(odd, hugeOrOddValue.map((v) => percentEncode(typeof v === 'string' ? v : JSON.stringify(v) ?? '')));

/** A query string for the operation: documented parameters with odd values, sometimes an unknown one. */
function queryFor(operation: Operation) {
  const known = operation.queryParams;
  const entries = fc.array(
    fc.oneof(
      fc.tuple(fc.constantFrom('page', 'limit'), fc.oneof(queryValue, fc.constantFrom('0', '-1', '101', '1.5', '1e3', '0x10', ' 1', '1,2', '', '9'.repeat(400)))),
      fc.tuple(fc.constant('filter'), filterValue.map(percentEncode)),
      fc.tuple(fc.constantFrom('sort', 'order'), fc.oneof(queryValue, fc.constantFrom('n', 'title', 'DESC', 'asc;', 'n desc', 'random()'))),
      fc.tuple(fc.oneof(fc.constantFrom('filter[title]', 'page[]', '__proto__', 'sort[0]', 'unknown'), fc.string({ maxLength: 10 }).map(percentEncode)), queryValue),
    ),
    { maxLength: known.length ? 4 : 2 },
  );
  return entries.map((list) => (list.length ? '?' + list.map(([k, v]) => `${k.includes('[') || k.includes('%') ? k : encodeURIComponent(k)}=${v}`).join('&') : ''));
}

function pathFor(operation: Operation, ids: (string | null)[]): string {
  let i = 0;
  return operation.template.replace(/\{[^}]+\}/g, () => ids[i++] ?? '');
}

/** One malformed request to `operation`; for operations that change data it always carries a defect that must be refused. */
function requestFor(operation: Operation, seeded: SeededIds, authHeader: fc.Arbitrary<Record<string, string>>): fc.Arbitrary<FuzzRequest> {
  const mutating = MUTATING.has(operation.method);
  const seededIds = operation.pathParams.map((name) => seeded[name]);
  // Verifying a domain performs DNS lookups and records the outcome: it is fuzzed with foreign ids only.
  const readsOnly = !mutating && !operation.template.endsWith('/verify');
  const pathIds = fc.oneof(
    { arbitrary: fc.constant({ ids: seededIds, foreign: false }), weight: readsOnly || !operation.pathParams.length ? 3 : 0 },
    { arbitrary: fc.tuple(...operation.pathParams.map(() => foreignId)).map((ids) => ({ ids, foreign: true })), weight: operation.pathParams.length ? 2 : 0 },
    {
      // Own table with a foreign row and the like: at least one id is not the seeded one.
      arbitrary: fc
        .tuple(...operation.pathParams.map((name) => fc.oneof(fc.constant(seeded[name]), foreignId)))
        .filter((ids) => ids.some((id, i) => id !== seededIds[i]))
        .map((ids) => ({ ids, foreign: true })),
      weight: operation.pathParams.length > 1 ? 1 : 0,
    },
  );
  const known = operation.bodyProperties ?? [];
  const body = fc.oneof(
    bodyWithUnknownProperty(known).map((b) => ({ body: b.text as string | Buffer | undefined, contentType: 'application/json', defect: b.defect })),
    unacceptableBody.map((b) => ({ body: b.text as string | Buffer | undefined, contentType: 'application/json', defect: b.defect })),
    bodyWithUnstorableValue(known).map((b) => ({ body: b.text as string | Buffer | undefined, contentType: 'application/json', defect: b.defect })),
    badUtf8Body.map((b) => ({ body: b.raw as string | Buffer | undefined, contentType: 'application/json', defect: b.defect })),
    fc.tuple(badContentType, fc.constantFrom('{"name": "x"}', '{"data": {"title": "x"}}', '{"name": "x", "zz_unknown": 1}', 'name=x&zz_unknown=1', '<a/>', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--x--')).map(([contentType, text]) => ({
      body: text as string | Buffer | undefined,
      contentType,
      defect: `content type ${contentType || '(empty)'}`,
    })),
  );
  return fc.tuple(pathIds, queryFor(operation), body, authHeader).map(([path, query, b, auth]) => {
    const bodyDefect = operation.method === 'DELETE' ? undefined : b.defect;
    // A DELETE has no body to spoil: it is only ever sent to ids that are not the seeded ones.
    const ids = operation.method === 'DELETE' && !path.foreign ? operation.pathParams.map(() => randomUUID()) : path.ids;
    const sendsBody = operation.method !== 'GET' && operation.method !== 'DELETE';
    const defect = !mutating ? '' : path.foreign || operation.method === 'DELETE' ? 'foreign id' : (bodyDefect ?? 'foreign id');
    return {
      method: operation.method,
      path: pathFor(operation, ids) + query,
      headers: { ...auth, ...(sendsBody && b.contentType ? { 'content-type': b.contentType } : {}) },
      body: sendsBody ? b.body : undefined,
      defect,
    };
  });
}

/** Requests to routes that do not exist, or with methods a route does not take. */
const strayRequest = fc.tuple(
  fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
  fc.constantFrom('/tables/x/y/z', '/TABLES', '/tables/', '//tables', '/calendar', '/calendar/availability/1', '/webhooks/%FF/test', '/admin', '/v1/tables', '/%00', '/tables;drop'),
).map(([method, path]) => ({ method, path, headers: {}, body: method === 'GET' || method === 'DELETE' ? undefined : '{"x":1}', defect: 'unknown route' }));

/** The mix: every documented operation alike, a little bad authentication, and stray routes. */
export function malformedRequests(seeded: SeededIds, keys: string[]): fc.Arbitrary<FuzzRequest> {
  const authHeader: fc.Arbitrary<Record<string, string>> = fc.oneof(
    { arbitrary: fc.constantFrom(...keys).map((key) => ({ authorization: `Bearer ${key}` })), weight: 20 },
    { arbitrary: fc.constantFrom<Record<string, string>>({}, { authorization: 'Bearer' }, { authorization: 'Basic Zm9vOmJhcg==' }, { authorization: `Bearer ${keys[0]}x` }, { authorization: 'Bearer ' + 'a'.repeat(10_000) }), weight: 1 },
  );
  const operations = documentedOperations();
  return fc.oneof(
    ...operations.map((operation) => ({ arbitrary: requestFor(operation, seeded, authHeader), weight: 4 })),
    { arbitrary: strayRequest.chain((request) => authHeader.map((auth) => ({ ...request, headers: { ...auth, 'content-type': 'application/json' } }))), weight: 2 },
  );
}
