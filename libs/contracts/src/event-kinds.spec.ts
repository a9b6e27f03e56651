import { eventSubject, subjectOrganization } from './event-kinds';

describe('event subjects', () => {
  const organizationId = '0b9e4c2a-7d1f-4e36-9a58-3c0f2d6b8e11';

  it('reads back the organization a subject was made for, lowercase', () => {
    expect(subjectOrganization(eventSubject(organizationId, 'row.created'))).toBe(organizationId);
    expect(subjectOrganization(eventSubject(organizationId.toUpperCase(), 'table.updated'))).toBe(organizationId);
  });

  it.each([
    ['another stream', `orders.${organizationId}.row.created`],
    ['no organization', 'events.row.created'],
    ['a prefix alone', 'events'],
    ['an organization that is not a UUID', 'events.acme.row.created'],
  ])('answers none for %s', (_what, subject) => {
    expect(subjectOrganization(subject)).toBeUndefined();
  });
});
