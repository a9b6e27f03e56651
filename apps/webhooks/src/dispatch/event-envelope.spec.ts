import { parseMessage } from './event-envelope';

const parseEvents = (bytes: Uint8Array) => parseMessage(bytes).events;

const event = {
  id: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b',
  event: 'member.invited',
  timestamp: '2026-11-21T10:00:00.000Z',
  organization_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  data: { member_id: 'm', email: 'a@example.com', role: 'member' },
};
const bytes = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

describe('parseEvents', () => {
  it('answers the payload receivers get, with exactly the contract fields in order', () => {
    const [parsed, ...more] = parseEvents(bytes({ extra: 1, ...event }));
    expect(more).toEqual([]);
    expect(parsed?.event).toEqual(event);
    expect(parsed?.body).toBe(JSON.stringify(event));
    expect(Object.keys(JSON.parse(parsed!.body))).toEqual(['id', 'event', 'timestamp', 'organization_id', 'data']);
  });

  it.each([
    ['not JSON', '{'],
    ['an array of no events', [{ ...event, id: 'abc' }, 5]],
    ['an array inside an array', [[event]]],
    ['no id', { ...event, id: undefined }],
    ['a non-UUID id', { ...event, id: 'abc' }],
    ['a non-UUID organization', { ...event, organization_id: 'org' }],
    ['no kind', { ...event, event: 5 }],
  ])('drops %s', (_what, value) => {
    expect(parseEvents(bytes(value))).toEqual([]);
  });

  it('reads the events of one message written together, in their order, leaving out an item that is not one', () => {
    const second = { ...event, id: '4f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b' };
    const parsed = parseEvents(bytes([event, { ...event, id: 'abc' }, second]));
    expect(parsed.map((item) => item.event)).toEqual([event, second]);
    expect(parsed.map((item) => item.body)).toEqual([JSON.stringify(event), JSON.stringify(second)]);
  });

  it('keeps the bodies as written when the message is exactly its events in the contract’s form, as an outbox writes them', () => {
    const second = { ...event, id: '4f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b', data: { note: 'caf\u00e9 "quoted"' } };
    const written = `[${JSON.stringify(event)}, ${JSON.stringify(second)}]`;
    const message = parseMessage(bytes(written));
    expect(message.bodies).toBe(written);
    expect(JSON.parse(message.bodies!).map((item: unknown) => JSON.stringify(item))).toEqual(message.events.map((item) => item.body));
    expect(parseMessage(bytes(event)).bodies).toBe(`[${JSON.stringify(event)}]`);
  });

  it.each([
    ['another order of the fields', { data: event.data, id: event.id, event: event.event, timestamp: event.timestamp, organization_id: event.organization_id }],
    ['a field more', { ...event, extra: 1 }],
    ['no data', { ...event, data: null }],
    ['an item that is not an event', [event, 5]],
  ])('rewrites the bodies of a message with %s', (_what, value) => {
    const message = parseMessage(bytes(value));
    expect(message.bodies).toBeUndefined();
    expect(message.events.map((item) => JSON.parse(item.body))).toEqual(message.events.map((item) => item.event));
  });
});
