import { isUuid } from './ids';
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
  'table.imported',
  'member.invited',
  'member.joined',
  'member.removed',
  'domain.verified',
  'domain.failed',
  'domain.degraded',
  'domain.deleted',
  'webhook.failed',
  'webhook.recovered',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];

export function isEventKind(value: unknown): value is EventKind {
  return typeof value === 'string' && (EVENT_KINDS as readonly string[]).includes(value);
}

export function eventSubject(organizationId: string, kind: string): string {
  return `${EVENTS_SUBJECT_PREFIX}.${organizationId}.${kind}`;
}

/** The organization and the kind an event's subject names (see eventSubject); undefined for a subject that names none. */
export function subjectOf(subject: string): { organizationId: string; kind: string } | undefined {
  const [prefix, organizationId, ...kind] = subject.split('.');
  if (prefix !== EVENTS_SUBJECT_PREFIX || !isUuid(organizationId) || kind.length === 0) return undefined;
  return { organizationId: organizationId.toLowerCase(), kind: kind.join('.') };
}

/** The operational events of the webhooks context: one webhook's status changed; sent to the organization's other webhooks. */
export const WEBHOOK_OPERATIONAL_KINDS = ['webhook.failed', 'webhook.recovered'] as const;
export type WebhookOperationalKind = (typeof WEBHOOK_OPERATIONAL_KINDS)[number];

/** The payload of every event, exactly as a webhook receiver gets it. */
export interface DomainEvent<D = unknown> {
  id: string;
  event: string;
  timestamp: string;
  organization_id: string;
  data: D;
}
