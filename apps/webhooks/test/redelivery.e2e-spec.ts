import { randomUUID } from 'node:crypto';
import { createTestOrg, eventually } from '@platform/testing';
import { createWebhook, deliveriesOf, recoverAndWait, sleep, statusOf, uniquePath, webhookScene } from './webhook-fixtures';

const QUIET_MS = 1_500;

// Each case waits on real deliveries, six attempts and admin commands on a shared machine.
jest.setTimeout(180_000);

describe('redeliver and recover', () => {
  const scene = webhookScene({ publisher: true });

  const idsAt = (path: string) => scene.receiver.at(path).map((hit) => hit.headers['webhook-id'] as string);

  it('redelivers a delivery of a failed webhook as a new series, and its 2xx makes the webhook active', async () => {
    const path = uniquePath('redeliver');
    let down = true;
    scene.receiver.on(path, () => (down ? { status: 500 } : { status: 200 }));
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    const event = await scene.events.publish(scene.orgId, 'row.created');
    // Six attempts on the test stack's short delays: seconds alone, over 20 s once on a loaded machine beside the whole suite.
    await eventually(async () => expect(await statusOf(scene.api, hook.id)).toBe('failed'), { timeoutMs: 60_000 });
    const [lastAttempt] = await deliveriesOf(scene.api, hook.id);
    expect(lastAttempt).toMatchObject({ attempt: 6, success: false });
    down = false;
    const response = await scene.api.post(`/webhooks/${hook.id}/deliveries/${lastAttempt.id}/redeliver`, {});
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ success: true, data: { event_id: event.id, webhook_id: hook.id, status: 'queued' } });
    await eventually(() => expect(scene.receiver.at(path)).toHaveLength(7));
    const resent = scene.receiver.at(path)[6];
    expect(resent.headers['webhook-id']).toBe(event.id);
    expect(resent.body.toString('utf8')).toBe(JSON.stringify(event));
    await eventually(async () => expect(await statusOf(scene.api, hook.id)).toBe('active'));
    expect((await deliveriesOf(scene.api, hook.id))[0]).toMatchObject({ event_id: event.id, attempt: 1, success: true, next_retry_at: null });
  });

  it('redelivers to a disabled webhook, which is an explicit request', async () => {
    const path = uniquePath('redeliver-disabled');
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.updated']);
    const event = await scene.events.publish(scene.orgId, 'row.updated');
    await eventually(() => expect(scene.receiver.at(path)).toHaveLength(1));
    const [delivery] = await eventually(async () => {
      const list = await deliveriesOf(scene.api, hook.id);
      expect(list).toHaveLength(1);
      return list;
    });
    await scene.api.patch(`/webhooks/${hook.id}`, { active: false });
    expect((await scene.api.post(`/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`)).status).toBe(201);
    await eventually(() => expect(idsAt(path)).toEqual([event.id, event.id]));
  });

  it('recovers every event a webhook never received, after its six attempts failed and while it was disabled, once per call', async () => {
    const path = uniquePath('recover');
    let down = false;
    scene.receiver.on(path, () => (down ? { status: 503 } : { status: 200 }));
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created', 'row.deleted']);
    const since = new Date().toISOString();
    const received = await scene.events.publish(scene.orgId, 'row.created');
    await eventually(() => expect(idsAt(path)).toEqual([received.id]));
    down = true;
    const failed = await scene.events.publish(scene.orgId, 'row.created');
    await eventually(async () => expect(await statusOf(scene.api, hook.id)).toBe('failed'), { timeoutMs: 20_000 });
    await scene.api.patch(`/webhooks/${hook.id}`, { active: false });
    const whileDisabled = [await scene.events.publish(scene.orgId, 'row.deleted'), await scene.events.publish(scene.orgId, 'row.created')];
    const notSubscribed = await scene.events.publish(scene.orgId, 'table.created');
    const otherOrganization = await scene.events.publish((await createTestOrg()).orgId, 'row.created');
    await scene.events.untilStored([...whileDisabled, notSubscribed, otherOrganization]);
    await sleep(QUIET_MS);
    expect(idsAt(path).filter((id) => id !== failed.id)).toEqual([received.id]);

    down = false;
    await scene.api.patch(`/webhooks/${hook.id}`, { active: true });
    const recovered = await recoverAndWait(scene.api, hook.id, { since });
    expect(recovered).toEqual({ status: 'finished', queued: 3, started_at: expect.any(String), finished_at: expect.any(String) });
    expect(Date.parse(recovered.finished_at)).toBeGreaterThanOrEqual(Date.parse(recovered.started_at));
    const owed = [failed.id, ...whileDisabled.map((event) => event.id)];
    await eventually(() => expect(idsAt(path).slice(7).sort()).toEqual([...owed].sort()));
    await sleep(QUIET_MS);
    expect(idsAt(path)).toHaveLength(10);
    expect(idsAt(path)).not.toContain(notSubscribed.id);
    expect(idsAt(path)).not.toContain(otherOrganization.id);
    await eventually(async () => expect((await deliveriesOf(scene.api, hook.id, '?success=true')).length).toBe(4));

    const again = await recoverAndWait(scene.api, hook.id, { since, until: new Date().toISOString() });
    expect(again.queued).toBe(0);
  });

  it('runs one recovery of a webhook at a time: a second while one is queued or running is a CONFLICT', async () => {
    const hook = await createWebhook(scene.api, scene.receiver.url(uniquePath('recover-once')), ['row.created']);
    const since = new Date(Date.now() - 60_000).toISOString();
    const answers = await Promise.all([1, 2, 3].map(() => scene.api.post(`/webhooks/${hook.id}/recover`, { since })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 400, 400]);
    expect(answers.filter((answer) => answer.status === 400).map((answer) => answer.body.error.code)).toEqual(['CONFLICT', 'CONFLICT']);
    const started = answers.find((answer) => answer.status === 202)!;
    await eventually(async () => expect((await scene.api.get(`/webhooks/${hook.id}/recoveries/${started.body.data.recovery_id}`)).body.data.status).toBe('finished'));
    expect((await scene.api.post(`/webhooks/${hook.id}/recover`, { since })).status).toBe(202);
    expect((await scene.api.get(`/webhooks/${hook.id}/recoveries/${randomUUID()}`)).status).toBe(404);
    expect((await scene.other.get(`/webhooks/${hook.id}/recoveries/${started.body.data.recovery_id}`)).status).toBe(404);
  });

  it('queues no event twice while an earlier recover or redeliver of it has not finished (a client that retries)', async () => {
    const path = uniquePath('recover-retried');
    let hang = true;
    scene.receiver.on(path, () => (hang ? 'hang' : { status: 200 }));
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    await scene.api.patch(`/webhooks/${hook.id}`, { active: false });
    const since = new Date().toISOString();
    const published = [];
    for (let i = 0; i < 25; i += 1) published.push(await scene.events.publish(scene.orgId, 'row.created'));
    const missed = published.map((event) => event.id);
    await scene.events.untilStored(published);
    await scene.api.patch(`/webhooks/${hook.id}`, { active: true });
    // The receiver hangs: the first recovery's series stay open while the client tries again.
    expect((await recoverAndWait(scene.api, hook.id, { since })).queued).toBe(25);
    expect((await recoverAndWait(scene.api, hook.id, { since })).queued).toBe(0);
    hang = false;
    scene.receiver.release(200);
    // One series per event: each succeeds once (a hung attempt's retry is the same series).
    const succeeded = async () => (await deliveriesOf(scene.api, hook.id, '?success=true&limit=100')).map((delivery) => delivery.event_id as string);
    await eventually(async () => expect((await succeeded()).sort()).toEqual([...missed].sort()), { timeoutMs: 40_000 });
    await sleep(QUIET_MS);
    expect(await succeeded()).toHaveLength(25);
    // Finished now: a recovery may send nothing again (all were received), a redelivery may.
    expect((await recoverAndWait(scene.api, hook.id, { since })).queued).toBe(0);
  });

  it.each([
    ['no since', {}, 'since'],
    ['a since that is not a timestamp', { since: 'yesterday' }, 'since'],
    ['a since without a time', { since: new Date().toISOString().slice(0, 10) }, 'since'],
    ['a since without a zone', { since: new Date(Date.now() - 60_000).toISOString().slice(0, 19) }, 'since'],
    ['a since in the future and no until', { since: new Date(Date.now() + 3_600_000).toISOString() }, 'since'],
    ['an until without a zone', { since: new Date(Date.now() - 120_000).toISOString(), until: new Date().toISOString().slice(0, 19) }, 'until'],
    ['a since past the retention', { since: new Date(Date.now() - 31 * 86_400_000).toISOString() }, 'since'],
    ['an until before since', { since: new Date(Date.now() - 60_000).toISOString(), until: new Date(Date.now() - 120_000).toISOString() }, 'until'],
    ['an unknown property', { since: new Date().toISOString(), events: ['row.created'] }, 'events'],
  ])('refuses a recovery with %s', async (_what, body, field) => {
    const hook = await createWebhook(scene.api, scene.receiver.url(uniquePath('recover-refused')), ['row.created']);
    const response = await scene.api.post(`/webhooks/${hook.id}/recover`, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: { field } } });
  });

  it('answers 404 for another organization’s webhook or delivery, and 400 for a test send', async () => {
    const path = uniquePath('redeliver-owner');
    const hook = await createWebhook(scene.api, scene.receiver.url(path), ['row.created']);
    await scene.api.post(`/webhooks/${hook.id}/test`, {});
    const [testSend] = await deliveriesOf(scene.api, hook.id);
    expect((await scene.other.post(`/webhooks/${hook.id}/deliveries/${testSend.id}/redeliver`)).status).toBe(404);
    expect((await scene.other.post(`/webhooks/${hook.id}/recover`, { since: new Date().toISOString() })).status).toBe(404);
    expect((await scene.api.post(`/webhooks/${hook.id}/deliveries/${randomUUID()}/redeliver`)).status).toBe(404);
    const refused = await scene.api.post(`/webhooks/${hook.id}/deliveries/${testSend.id}/redeliver`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.field).toBe('delivery_id');
  });
});
