import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EVENT_KINDS } from '@contracts';

const REPO_ROOT = resolve(__dirname, '../..');
const document = JSON.parse(readFileSync(resolve(REPO_ROOT, 'openapi.json'), 'utf8'));

interface Operation {
  operationId?: string;
  tags?: string[];
  parameters?: { in: string; name: string }[];
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}
const operations = (): [string, string, Operation][] =>
  Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, string, Operation] => [method, path, operation]),
  );

/** What a generated client meets: the committed openapi.json (regenerated from the gateway's code). */
describe('openapi.json', () => {
  it('passes @redocly/cli lint with its recommended rules without an error', () => {
    const lint = spawnSync(resolve(REPO_ROOT, 'node_modules/.bin/redocly'), ['lint', 'openapi.json', '--format=json'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const report = JSON.parse(lint.stdout) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string }[] };
    expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('names a server whose URL ends in /v1, and paths relative to it with the interface parameter names', () => {
    expect(document.servers.length).toBeGreaterThan(0);
    for (const server of document.servers) expect(server.url).toMatch(/\/v1$/);
    for (const [, path, operation] of operations()) {
      expect(path).not.toMatch(/^\/v1\//);
      for (const name of path.match(/\{[^}]+\}/g) ?? []) expect(name).toMatch(/^\{[a-z]+(_[a-z]+)*_id\}$/);
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'header') expect(parameter.name).toMatch(/^[A-Z][a-z]*(-[A-Z][a-z]*)*$/);
        else expect(parameter.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      }
    }
  });

  it('gives every operation a unique verb operationId and a declared tag', () => {
    const declared = new Set((document.tags as { name: string }[]).map((tag) => tag.name));
    const ids = operations().map(([, , operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [method, path, operation] of operations()) {
      expect({ method, path, operationId: operation.operationId }).toEqual({
        method,
        path,
        operationId: expect.stringMatching(/^(list|get|create|update|delete|replace|verify|test|rotate|redeliver|recover|batch)[A-Z][A-Za-z]*$/),
      });
      expect(operation.tags?.length).toBeGreaterThan(0);
      for (const tag of operation.tags ?? []) expect(declared).toContain(tag);
    }
  });

  it('offers an Idempotency-Key header on every POST and only there', () => {
    for (const [method, path, operation] of operations()) {
      const offered = (operation.parameters ?? []).some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key');
      expect({ method, path, offered }).toEqual({ method, path, offered: method === 'post' });
    }
  });

  it('types every success body to its fields and gives every error status the error body', () => {
    for (const [method, path, operation] of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const schema = JSON.stringify(response.content?.['application/json']?.schema ?? null);
        if (/^2/.test(status)) {
          expect({ method, path, status, schema }).toEqual({ method, path, status, schema: expect.stringMatching(/"\$ref"|"message"/) });
          expect(schema).not.toMatch(/see the interface/);
        } else {
          expect({ method, path, status, schema }).toEqual({ method, path, status, schema: '{"$ref":"#/components/schemas/ErrorResponse"}' });
        }
      }
    }
  });

  it('describes every webhook payload and types optional strings as strings, not objects', () => {
    const schemas = document.components.schemas;
    for (const name of ['RowEventPayload', 'TableEventPayload', 'MemberEventPayload', 'WebhookTestPayload']) {
      expect(schemas[name].required).toEqual(expect.arrayContaining(['id', 'event', 'timestamp', 'organization_id', 'data']));
    }
    for (const body of ['CreateTableBody', 'UpdateTableBody']) {
      expect(schemas[body].properties.description).toEqual(expect.objectContaining({ type: ['string', 'null'] }));
      expect(schemas[body].properties.icon).toEqual(expect.objectContaining({ type: ['string', 'null'] }));
    }
  });

  it('is OpenAPI 3.1 throughout: no schema says nullable the 3.0 way', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(JSON.stringify(document)).not.toMatch(/"nullable":/);
  });

  it('describes every event kind in its webhooks section: the payload class of the kind with event fixed to it, signed headers, no API key', () => {
    const kinds = [...EVENT_KINDS, 'webhook.test'];
    expect(Object.keys(document.webhooks).sort()).toEqual(kinds.sort());
    for (const kind of kinds) {
      const post = document.webhooks[kind].post;
      const schema = post.requestBody.content['application/json'].schema;
      expect({ kind, schema }).toEqual({
        kind,
        schema: { allOf: [{ $ref: expect.stringMatching(/^#\/components\/schemas\/\w+Payload$/) }], type: 'object', properties: { event: { const: kind } }, required: ['event'] },
      });
      const payload = document.components.schemas[schema.allOf[0].$ref.split('/').pop()];
      expect(payload.properties.event.enum).toContain(kind);
      expect(post.security).toEqual([]);
      expect(post.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature']));
    }
  });
});
