import type { DnsRecord, DomainView } from '@contracts';
import type { DomainEntity } from './domain.entity';

export function toDomainView(domain: DomainEntity, dnsRecords?: DnsRecord[]): DomainView {
  const view: DomainView = {
    id: domain.id,
    domain: domain.domain,
    status: domain.status,
    type: domain.type,
    dns_configured: domain.dnsConfigured,
    mx_verified: domain.mxVerified,
    spf_verified: domain.spfVerified,
    dkim_verified: domain.dkimVerified,
    verified_at: domain.verifiedAt ? domain.verifiedAt.toISOString() : null,
    created_at: domain.createdAt.toISOString(),
    last_checked_at: domain.checkedAt ? domain.checkedAt.toISOString() : null,
    issues: domain.issues,
  };
  return dnsRecords ? { ...view, dns_records: dnsRecords } : view;
}
