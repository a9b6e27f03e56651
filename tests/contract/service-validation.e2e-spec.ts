import { randomUUID } from 'node:crypto';
import { ClientProxy, ClientProxyFactory, Transport } from '@nestjs/microservices';
import { CalendarOperations, ServiceReply, TablesPatterns } from '@contracts';
import { stackEnv } from '@platform/testing';
import { firstValueFrom, timeout } from 'rxjs';

/**
 * A service that still answers its messages through Nest's pattern handlers checks the `params` of each
 * with its contract class: a caller on NATS that skips the gateway gets a VALIDATION_ERROR naming the
 * field, and nothing reaches the database. A declared operation's input is checked once, at the gateway,
 * and its service checks only what the edge cannot know.
 */
describe('services validate their input', () => {
  let client: ClientProxy;
  const org = { id: randomUUID(), plan: 250, addons: [] };

  const send = async (pattern: string, params: unknown): Promise<ServiceReply<any>> =>
    firstValueFrom(client.send<ServiceReply<any>>(pattern, { org, requestId: randomUUID(), timeoutMs: 10_000, params }).pipe(timeout(10_000)));

  beforeAll(async () => {
    client = ClientProxyFactory.create({ transport: Transport.NATS, options: { servers: stackEnv().NATS_URL.split(',') } });
    await client.connect();
  });

  afterAll(async () => {
    await client?.close();
  });

  it.each([
    ['tables', TablesPatterns.get, { tableId: 'not-a-uuid' }, 'tableId'],
    ['tables', TablesPatterns.list, { page: 0, limit: 10 }, 'page'],
    ['tables', TablesPatterns.create, { body: { name: 'x', fields: [{ name: 'a', field_type: 'nope' }] } }, 'body.fields[0].field_type'],
    ['rows', TablesPatterns.createRow, { tableId: randomUUID(), data: 'text' }, 'data'],
    ['rows', TablesPatterns.listRows, { tableId: randomUUID(), order: 'sideways' }, 'order'],
    ['calendar', CalendarOperations.availabilityWindows.subject, { from: '2026-03-10', to: '2026-03-01' }, 'to'],
  ])('%s refuses bad params of %s, naming the field', async (_service, pattern, params, field) => {
    const reply = await send(pattern, params);
    expect(reply).toEqual({ ok: false, error: expect.objectContaining({ code: 'VALIDATION_ERROR', details: expect.objectContaining({ field }) }) });
  });

  it.each([TablesPatterns.create])(
    '%s refuses an unknown param by name, and params that are not an object',
    async (pattern) => {
      const unknown = await send(pattern, { smuggled: true });
      expect(unknown).toEqual({ ok: false, error: expect.objectContaining({ code: 'VALIDATION_ERROR', details: expect.objectContaining({ field: 'smuggled' }) }) });
      const notAnObject = await send(pattern, ['a']);
      expect(notAnObject).toEqual({ ok: false, error: expect.objectContaining({ code: 'VALIDATION_ERROR' }) });
    },
  );

  it('still answers valid params (the pipe lets a checked request through)', async () => {
    const reply = await send(TablesPatterns.list, { page: 1, limit: 5 });
    expect(reply).toEqual({ ok: true, data: [], pagination: { page: 1, limit: 5, total: 0 } });
  });
});
