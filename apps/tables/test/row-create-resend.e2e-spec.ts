import { connect, Msg, NatsConnection, Subscription } from 'nats';
import { RowsOperations } from '@contracts';
import { stackEnv } from '@platform/testing';
import { createTable, newOrg, OrgClient } from './tables-fixtures';

const RESEND_AFTER_MS = 3_000;
const decoder = new TextDecoder();

interface Taken {
  callId: string;
  tookAt: number;
}

/**
 * A replica of the tables service that commits what it takes but whose answer never comes back, as when
 * its host dies right after the commit: it joins the service's queue group, hands this organization's
 * first create to the real service without a reply subject, and passes everything else on untouched.
 */
async function replyLosingReplica(nc: NatsConnection, orgId: string): Promise<{ taken: Promise<Taken>; stop(): void }> {
  let subscription: Subscription | undefined;
  const taken = new Promise<Taken>((resolve) => {
    subscription = nc.subscribe(RowsOperations.create.subject, {
      queue: 'tables',
      callback: (_error, message: Msg) => {
        const packet = JSON.parse(decoder.decode(message.data)) as { data: { org: { id: string }; callId: string } };
        if (packet.data.org.id !== orgId) {
          nc.publish(message.subject, message.data, { reply: message.reply, headers: message.headers });
          return;
        }
        subscription?.unsubscribe();
        nc.publish(message.subject, message.data, { headers: message.headers });
        resolve({ callId: packet.data.callId, tookAt: Date.now() });
      },
    });
  });
  await nc.flush();
  return { taken, stop: () => subscription?.unsubscribe() };
}

describe('a row create whose answer was lost', () => {
  let org: OrgClient;
  let nc: NatsConnection;

  beforeAll(async () => {
    org = await newOrg();
    nc = await connect({ servers: stackEnv().NATS_URL });
  });

  afterAll(async () => {
    await nc?.close();
  });

  it('is sent again under its call id and answers the row it committed, which exists once', async () => {
    const { id: tableId } = await createTable(org.api, [{ name: 'Title', field_type: 'text' }, { name: 'Email', field_type: 'email', options: { is_unique: true } }]);
    const replica = await replyLosingReplica(nc, org.orgId);
    const answered: Array<{ status: number; id: string; ms: number }> = [];
    try {
      // The queue group hands each create to the real replica or to this one at random: create until this one took one.
      let proxied: Taken | undefined;
      for (let i = 0; i < 40 && !proxied; i += 1) {
        const started = Date.now();
        const res = await org.api.post(`/tables/${tableId}/rows`, { data: { title: `row ${i}`, email: `r${i}@example.com` } });
        answered.push({ status: res.status, id: res.body.data?.id, ms: Date.now() - started });
        proxied = await Promise.race([replica.taken, new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined)))]);
      }
      expect(proxied).toBeDefined();
      const last = answered[answered.length - 1];
      // The row is named after the call: the resend found it committed and answered it.
      expect(last).toEqual({ status: 201, id: proxied!.callId, ms: expect.any(Number) });
      expect(last.ms).toBeGreaterThanOrEqual(RESEND_AFTER_MS - 100);
    } finally {
      replica.stop();
    }
    expect(answered.every((answer) => answer.status === 201)).toBe(true);
    const list = await org.api.get(`/tables/${tableId}/rows?limit=100`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((row: { id: string }) => row.id).sort()).toEqual(answered.map((answer) => answer.id).sort());
  });
});
