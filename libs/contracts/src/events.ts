/** The JetStream stream every context publishes its events to, and how subjects are formed. */
export const EVENTS_STREAM = 'EVENTS';
export const EVENTS_SUBJECT_PREFIX = 'events';

export const EVENT_KINDS = [
  'row.created',
  'row.updated',
  'row.deleted',
  'table.created',
  'table.updated',
  'table.deleted',
  'member.invited',
  'member.joined',
  'member.removed',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];

export function isEventKind(value: unknown): value is EventKind {
  return typeof value === 'string' && (EVENT_KINDS as readonly string[]).includes(value);
}

export function eventSubject(organizationId: string, kind: string): string {
  return `${EVENTS_SUBJECT_PREFIX}.${organizationId}.${kind}`;
}

export interface RowEventData {
  table_id: string;
  table_name: string;
  row_id: string;
  row_data: Record<string, unknown>;
}

export interface TableEventData {
  table_id: string;
  table_name: string;
  table_slug: string;
}

export interface MemberEventData {
  member_id: string;
  email: string;
  role: string;
}

/** The payload of every event, exactly as a webhook receiver gets it. */
export interface DomainEvent<D = unknown> {
  id: string;
  event: string;
  timestamp: string;
  organization_id: string;
  data: D;
}
