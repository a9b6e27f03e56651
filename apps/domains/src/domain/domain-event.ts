import type { DomainEvent, DomainEventData } from '@contracts';
import { buildEvent } from '@platform/persistence';
import type { DomainEntity } from './domain.entity';

export type DomainEventKind = 'domain.verified' | 'domain.failed' | 'domain.degraded' | 'domain.deleted';

/** The event a mail-sending system acts on: which domain, its status now, and what its latest check found. */
export function domainEvent(kind: DomainEventKind, domain: DomainEntity): DomainEvent<DomainEventData> {
  return buildEvent(domain.organizationId, kind, { domain_id: domain.id, domain: domain.domain, status: domain.status, issues: domain.issues });
}
