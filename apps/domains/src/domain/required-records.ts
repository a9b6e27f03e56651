import { randomBytes } from 'node:crypto';
import type { DnsRecord } from '@contracts';

/** Where our mail service lives; every domain's records point at these. */
export interface MailHosts {
  mxHost: string;
  spfInclude: string;
  dkimDomain: string;
}

export interface DkimRecord {
  name: string;
  target: string;
}

/** What a domain's owner must publish for us to send and receive mail for it. */
export interface RequiredRecords {
  domain: string;
  mxHost: string;
  spfInclude: string;
  dkim: [DkimRecord, DkimRecord];
}

export const MX_PRIORITY = 10;

export function requiredRecords(domain: string, selectors: [string, string], hosts: MailHosts): RequiredRecords {
  const dkim = (selector: string): DkimRecord => ({ name: `${selector}._domainkey.${domain}`, target: `${selector}.${hosts.dkimDomain}` });
  return { domain, mxHost: hosts.mxHost, spfInclude: hosts.spfInclude, dkim: [dkim(selectors[0]), dkim(selectors[1])] };
}

export function spfRecordValue(spfInclude: string): string {
  return `v=spf1 include:${spfInclude} ~all`;
}

export function dnsRecordsOf(required: RequiredRecords): DnsRecord[] {
  return [
    { type: 'MX', name: required.domain, value: required.mxHost, priority: MX_PRIORITY },
    { type: 'TXT', name: required.domain, value: spfRecordValue(required.spfInclude) },
    ...required.dkim.map((record): DnsRecord => ({ type: 'CNAME', name: record.name, value: record.target })),
  ];
}

/** Two distinct random selectors; random so that one domain's DKIM targets never collide with another's. */
export function newDkimSelectors(): [string, string] {
  const selector = () => `k${randomBytes(6).toString('hex')}`;
  const first = selector();
  let second = selector();
  while (second === first) second = selector();
  return [first, second];
}
