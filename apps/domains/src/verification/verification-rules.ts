import { sameHost } from '../domain/hostname';
import { MX_PRIORITY, RequiredRecords, spfRecordValue } from '../domain/required-records';
import type { DnsObservation, Lookup } from './dns-observation';

/** One check's verdict: whether it passes, whether any of our values was seen at all, and what to fix. */
interface CheckResult {
  verified: boolean;
  seen: boolean;
  issues: string[];
}

export interface RecordsVerdict {
  mxVerified: boolean;
  spfVerified: boolean;
  dkimVerified: boolean;
  allVerified: boolean;
  /** At least one required record was found with our value. */
  anyRecordSeen: boolean;
  issues: string[];
}

const SPF_RECORD = /^v=spf1(\s|$)/i;

function lookupFailure(lookup: Lookup, what: string): string | undefined {
  if (lookup.outcome === 'timeout') {
    return `The ${what} lookup timed out: check that the domain's name servers are reachable and answering, then verify again.`;
  }
  if (lookup.outcome === 'error') {
    return `The ${what} lookup failed (${lookup.code}): check that the domain's name servers answer correctly, then verify again.`;
  }
  return undefined;
}

function displayHost(host: string): string {
  return host.replace(/\.$/, '') || '.';
}

export function checkMx(required: RequiredRecords, lookup: Lookup): CheckResult {
  const failure = lookupFailure(lookup, `MX for ${required.domain}`);
  if (failure) return { verified: false, seen: false, issues: [failure] };
  const add = `add an MX record at ${required.domain} pointing to ${required.mxHost} with priority ${MX_PRIORITY}`;
  if (lookup.outcome !== 'found' || lookup.values.length === 0) {
    return { verified: false, seen: false, issues: [`Missing MX record at ${required.domain}: ${add}.`] };
  }
  const ours = lookup.values.some((host) => sameHost(host, required.mxHost));
  const others = [...new Set(lookup.values.filter((host) => !sameHost(host, required.mxHost)).map(displayHost))];
  const issues = others.map(
    (host) =>
      `Conflicting MX host ${host} at ${required.domain}: remove that MX record so that mail goes only to ${required.mxHost}.`,
  );
  if (!ours) issues.push(`The MX records at ${required.domain} do not point to ${required.mxHost}: ${add}.`);
  return { verified: ours && others.length === 0, seen: ours, issues };
}

function includesOurs(record: string, spfInclude: string): boolean {
  return record
    .split(/\s+/)
    .some((term) => /^\+?include:/i.test(term) && sameHost(term.replace(/^\+?include:/i, ''), spfInclude));
}

export function checkSpf(required: RequiredRecords, lookup: Lookup): CheckResult {
  const failure = lookupFailure(lookup, `TXT (SPF) for ${required.domain}`);
  if (failure) return { verified: false, seen: false, issues: [failure] };
  const records = lookup.outcome === 'found' ? lookup.values.filter((text) => SPF_RECORD.test(text.trim())) : [];
  const ourInclude = `include:${required.spfInclude}`;
  if (records.length === 0) {
    return {
      verified: false,
      seen: false,
      issues: [`Missing SPF record at ${required.domain}: add a TXT record "${spfRecordValue(required.spfInclude)}".`],
    };
  }
  const seen = records.some((record) => includesOurs(record, required.spfInclude));
  if (records.length > 1) {
    return {
      verified: false,
      seen,
      issues: [
        `Found ${records.length} SPF records at ${required.domain}, but only one is allowed: merge them into a single "v=spf1" TXT record that contains ${ourInclude} before its final qualifier, and delete the others.`,
      ],
    };
  }
  if (!seen) {
    return {
      verified: false,
      seen,
      issues: [
        `The SPF record at ${required.domain} does not include ${required.spfInclude}: add "${ourInclude}" to it before the final qualifier (for example "v=spf1 ... ${ourInclude} ~all").`,
      ],
    };
  }
  return { verified: true, seen, issues: [] };
}

export function checkDkimRecord(record: { name: string; target: string }, lookup: Lookup): CheckResult {
  const failure = lookupFailure(lookup, `CNAME (DKIM) for ${record.name}`);
  if (failure) return { verified: false, seen: false, issues: [failure] };
  if (lookup.outcome !== 'found' || lookup.values.length === 0) {
    return { verified: false, seen: false, issues: [`Missing DKIM CNAME record at ${record.name}: add a CNAME pointing to ${record.target}.`] };
  }
  if (lookup.values.some((target) => sameHost(target, record.target))) return { verified: true, seen: true, issues: [] };
  const actual = lookup.values.map(displayHost).join(', ');
  return {
    verified: false,
    seen: false,
    issues: [`Wrong CNAME target at ${record.name}: it points to ${actual}; change it to point to ${record.target}.`],
  };
}

/** Judges what DNS answered against what the domain must publish. Pure, so the rules are tested alone. */
export function judgeRecords(required: RequiredRecords, observed: DnsObservation): RecordsVerdict {
  const mx = checkMx(required, observed.mx);
  const spf = checkSpf(required, observed.txt);
  const dkim = required.dkim.map((record, i) => checkDkimRecord(record, observed.dkim[i]));
  const dkimVerified = dkim.every((check) => check.verified);
  return {
    mxVerified: mx.verified,
    spfVerified: spf.verified,
    dkimVerified,
    allVerified: mx.verified && spf.verified && dkimVerified,
    anyRecordSeen: mx.seen || spf.seen || dkim.some((check) => check.seen),
    issues: [...mx.issues, ...spf.issues, ...dkim.flatMap((check) => check.issues)],
  };
}
