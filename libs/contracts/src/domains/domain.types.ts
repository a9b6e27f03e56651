export type DomainStatus = 'pending' | 'active' | 'failed';

export interface DnsRecord {
  type: 'MX' | 'TXT' | 'CNAME';
  name: string;
  value: string;
  priority?: number;
}

export interface DomainView {
  id: string;
  domain: string;
  status: DomainStatus;
  type: string;
  dns_configured: boolean;
  mx_verified: boolean;
  spf_verified: boolean;
  dkim_verified: boolean;
  verified_at: string | null;
  created_at: string;
  dns_records?: DnsRecord[];
}

export interface DomainVerification {
  id: string;
  domain: string;
  status: DomainStatus;
  dns_configured: boolean;
  mx_verified: boolean;
  spf_verified: boolean;
  dkim_verified: boolean;
  all_verified: boolean;
  verified_at: string | null;
  /** Present when something is unverified: what is wrong and what to do, in plain words. */
  issues?: string[];
}

export interface EmailAddressView {
  id: string;
  address: string;
  is_primary: boolean;
  created_at: string;
}
