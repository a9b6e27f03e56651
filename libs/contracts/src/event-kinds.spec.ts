import { eventSubject, subjectOf } from './event-kinds';

describe('event subjects', () => {
  const organizationId = '0b9e4c2a-7d1f-4e36-9a58-3c0f2d6b8e11';

  it('reads back the organization (lowercase) and the kind a subject was made for', () => {
    expect(subjectOf(eventSubject(organizationId, 'row.created'))).toEqual({ organizationId, kind: 'row.created' });
    expect(subjectOf(eventSubject(organizationId.toUpperCase(), 'table.updated'))).toEqual({ organizationId, kind: 'table.updated' });
  });

  it.each([
    ['another stream', `orders.${organizationId}.row.created`],
    ['no organization', 'events.row.created'],
    ['no kind', `events.${organizationId}`],
    ['a prefix alone', 'events'],
    ['an organization that is not a UUID', 'events.acme.row.created'],
  ])('answers none for %s', (_what, subject) => {
    expect(subjectOf(subject)).toBeUndefined();
  });
});
