import { EVENT_KINDS } from '@contracts';
import { ApiClient, apiClient, createTestOrg, eventually, Receiver, webhookPayloadViolations } from '@platform/testing';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { uniquePath } from './webhook-fixtures';

// Events travel the whole way: gateway, tables, outbox relay, JetStream, fan-out, worker, receiver.
jest.setTimeout(120_000);

interface EventType {
  event_type: string;
  description: string;
  data_schema: object;
}

interface Payload {
  event: string;
  data: Record<string, unknown>;
}

describe('GET /event-types and the webhooks section of the OpenAPI document', () => {
  let api: ApiClient;
  let receiver: Receiver;
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));

  beforeAll(async () => {
    api = apiClient((await createTestOrg()).key);
    receiver = await Receiver.start();
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('lists every kind a webhook can subscribe to, with a description and a JSON Schema of its data', async () => {
    const response = await api.get('/event-types');
    expect(response.status).toBe(200);
    const types = response.body.data as EventType[];
    expect(types.map((type) => type.event_type)).toEqual([...EVENT_KINDS]);
    for (const type of types) {
      expect(type.description.length).toBeGreaterThan(10);
      expect(() => ajv.compile(type.data_schema)).not.toThrow();
    }
    const rowUpdated = types.find((type) => type.event_type === 'row.updated')?.data_schema as { required: string[]; properties: Record<string, unknown> };
    expect(rowUpdated.required).toEqual(expect.arrayContaining(['table_id', 'row_id', 'row_data', 'previous_row_data', 'changed_fields']));
    // Nullable fields are JSON Schema's way: null among the types.
    const failed = types.find((type) => type.event_type === 'webhook.failed')?.data_schema as { properties: Record<string, { type: unknown }> };
    expect(failed.properties.last_error.type).toEqual(['string', 'null']);
  });

  it('is refused to a key without webhooks:read', async () => {
    const narrow = apiClient((await createTestOrg({ scopes: 'tables:read' })).key);
    const response = await narrow.get('/event-types');
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
  });

  it('describes what receivers really get: each delivered payload matches its kind in both, and a wrong one does not', async () => {
    const schemas = new Map(((await api.get('/event-types')).body.data as EventType[]).map((type) => [type.event_type, ajv.compile(type.data_schema)]));
    const served = (await apiClient().get('/openapi.json')).body;
    expect(served.openapi).toBe('3.1.0');
    expect(Object.keys(served.webhooks).sort()).toEqual([...EVENT_KINDS, 'webhook.test'].sort());

    const path = uniquePath('kinds');
    const kinds = ['row.created', 'row.updated', 'row.deleted', 'table.updated', 'table.deleted'];
    const hook = await api.post('/webhooks', { name: 'every kind', url: receiver.url(path), events: kinds });
    expect(hook.status).toBe(201);
    const table = (await api.post('/tables', { name: `Kinds ${path.slice(-6)}`, fields: [{ name: 'Title', field_type: 'text' }, { name: 'Due', field_type: 'date' }] })).body.data;
    const row = (await api.post(`/tables/${table.id}/rows`, { data: { title: 'first', due: '2026-12-01' } })).body.data;
    expect((await api.patch(`/tables/${table.id}/rows/${row.id}`, { data: { title: 'second', due: null } })).status).toBe(200);
    expect((await api.patch(`/tables/${table.id}`, { name: `Renamed ${path.slice(-6)}` })).status).toBe(200);
    expect((await api.delete(`/tables/${table.id}/rows/${row.id}`)).status).toBe(200);
    expect((await api.delete(`/tables/${table.id}`)).status).toBe(200);
    expect((await api.post(`/webhooks/${hook.body.data.id}/test`, {})).status).toBe(200);

    // What this checks is the payloads, not how soon they come: in the whole suite, beside specs that kill
    // relays and start and stop workers on the same stack, two of these five have come after more than 30 s.
    await eventually(() => expect(new Set(receiver.at(path).map((hit) => JSON.parse(hit.body.toString('utf8')).event))).toEqual(new Set([...kinds, 'webhook.test'])), {
      timeoutMs: 100_000,
    });
    for (const hit of receiver.at(path)) {
      const payload = JSON.parse(hit.body.toString('utf8')) as Payload;
      expect({ kind: payload.event, violations: webhookPayloadViolations(payload.event, payload) }).toEqual({ kind: payload.event, violations: [] });
      if (payload.event === 'webhook.test') continue;
      const validate = schemas.get(payload.event);
      expect({ kind: payload.event, valid: validate?.(payload.data), errors: validate?.errors ?? null }).toEqual({ kind: payload.event, valid: true, errors: null });
    }

    const created = receiver.at(path).map((hit) => JSON.parse(hit.body.toString('utf8')) as Payload).find((payload) => payload.event === 'row.created') as Payload;
    const { row_id: _dropped, ...withoutRowId } = created.data;
    expect(schemas.get('row.created')?.(withoutRowId)).toBe(false);
    expect(schemas.get('row.created')?.({ ...created.data, row_data: 'not a row' })).toBe(false);
    expect(webhookPayloadViolations('row.created', { ...created, event: 'row.deleted' })).not.toEqual([]);
    expect(webhookPayloadViolations('row.created', { ...created, data: withoutRowId })).not.toEqual([]);
  });
});
