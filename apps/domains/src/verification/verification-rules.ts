import { sameHost } from '../domain/hostname';
import { MX_PRIORITY, RequiredRecords, spfRecordValue } from '../domain/required-records';
import type { DnsObservation, Lookup } from './dns-observation';

/**
 * One check's verdict: whether it passes, whether any of our values was seen at all, what to fix, and
 * whether DNS answered at all (a timeout or a failure tells nothing about the record).
 */
interface CheckResult {
  verified: boolean;
  seen: boolean;
  answered: boolean;
  issues: string[];
}

export interface RecordsVerdict {
  mxVerified: boolean;
  spfVerified: boolean;
  dkimVerified: boolean;
  allVerified: boolean;
  /** At least one required record was found with our value. */
  anyRecordSeen: boolean;
  /** Per flag: whether DNS said enough to set it; a flag DNS said nothing about keeps what the last check knew. */
  known: { mx: boolean; spf: boolean; dkim: boolean };
  issues: string[];
  /** Advice that never blocks verification (DMARC). */
  recommendations: string[];
}

const SPF_RECORD = /^v=spf1(\s|$)/i;
const DMARC_RECORD = /^v=DMARC1(\s*;|\s*$)/i;
export const DMARC_EXAMPLE = 'v=DMARC1; p=none';

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
  if (failure) return { verified: false, seen: false, answered: false, issues: [failure] };
  const add = `add an MX record at ${required.domain} pointing to ${required.mxHost} with priority ${MX_PRIORITY}`;
  if (lookup.outcome !== 'found' || lookup.values.length === 0) {
    return { verified: false, seen: false, answered: true, issues: [`Missing MX record at ${required.domain}: ${add}.`] };
  }
  const ours = lookup.values.some((host) => sameHost(host, required.mxHost));
  const others = [...new Set(lookup.values.filter((host) => !sameHost(host, required.mxHost)).map(displayHost))];
  const issues = others.map(
    (host) =>
      `Conflicting MX host ${host} at ${required.domain}: remove that MX record so that mail goes only to ${required.mxHost}.`,
  );
  if (!ours) issues.push(`The MX records at ${required.domain} do not point to ${required.mxHost}: ${add}.`);
  return { verified: ours && others.length === 0, seen: ours, answered: true, issues };
}

function includesOurs(record: string, spfInclude: string): boolean {
  return record
    .split(/\s+/)
    .some((term) => /^\+?include:/i.test(term) && sameHost(term.replace(/^\+?include:/i, ''), spfInclude));
}

export function checkSpf(required: RequiredRecords, lookup: Lookup): CheckResult {
  const failure = lookupFailure(lookup, `TXT (SPF) for ${required.domain}`);
  if (failure) return { verified: false, seen: false, answered: false, issues: [failure] };
  const records = lookup.outcome === 'found' ? lookup.values.filter((text) => SPF_RECORD.test(text.trim())) : [];
  const ourInclude = `include:${required.spfInclude}`;
  if (records.length === 0) {
    return {
      verified: false,
      seen: false,
      answered: true,
      issues: [`Missing SPF record at ${required.domain}: add a TXT record "${spfRecordValue(required.spfInclude)}".`],
    };
  }
  const seen = records.some((record) => includesOurs(record, required.spfInclude));
  if (records.length > 1) {
    return {
      verified: false,
      seen,
      answered: true,
      issues: [
        `Found ${records.length} SPF records at ${required.domain}, but only one is allowed: merge them into a single "v=spf1" TXT record that contains ${ourInclude} before its final qualifier, and delete the others.`,
      ],
    };
  }
  if (!seen) {
    return {
      verified: false,
      seen,
      answered: true,
      issues: [
        `The SPF record at ${required.domain} does not include ${required.spfInclude}: add "${ourInclude}" to it before the final qualifier (for example "v=spf1 ... ${ourInclude} ~all").`,
      ],
    };
  }
  return { verified: true, seen, answered: true, issues: [] };
}

export function checkDkimRecord(record: { name: string; target: string }, lookup: Lookup): CheckResult {
  const failure = lookupFailure(lookup, `CNAME (DKIM) for ${record.name}`);
  if (failure) return { verified: false, seen: false, answered: false, issues: [failure] };
  if (lookup.outcome !== 'found' || lookup.values.length === 0) {
    return { verified: false, seen: false, answered: true, issues: [`Missing DKIM CNAME record at ${record.name}: add a CNAME pointing to ${record.target}.`] };
  }
  if (lookup.values.some((target) => sameHost(target, record.target))) return { verified: true, seen: true, answered: true, issues: [] };
  const actual = lookup.values.map(displayHost).join(', ');
  return {
    verified: false,
    seen: false,
    answered: true,
    issues: [`Wrong CNAME target at ${record.name}: it points to ${actual}; change it to point to ${record.target}.`],
  };
}

/**
 * Recommends DMARC only when DNS said there is none: a lookup that timed out or failed proves nothing,
 * and the required records' issues already say that DNS did not answer.
 */
export function dmarcRecommendations(domain: string, lookup: Lookup): string[] {
  if (lookup.outcome === 'timeout' || lookup.outcome === 'error') return [];
  if (lookup.outcome === 'found' && lookup.values.some((text) => DMARC_RECORD.test(text.trim()))) return [];
  return [
    `Recommended: no DMARC record at _dmarc.${domain}: add a TXT record such as "${DMARC_EXAMPLE}" so that receivers know how to treat mail that fails SPF and DKIM (this does not block verification).`,
  ];
}

/** Judges what DNS answered against what the domain must publish. Pure, so the rules are tested alone. */
export function judgeRecords(required: RequiredRecords, observed: DnsObservation): RecordsVerdict {
  const mx = checkMx(required, observed.mx);
  const spf = checkSpf(required, observed.txt);
  const dkim = required.dkim.map((record, i) => checkDkimRecord(record, observed.dkim[i]));
  const dkimVerified = dkim.every((check) => check.verified);
  // One selector answered wrong settles DKIM even while the other did not answer.
  const dkimKnown = dkim.every((check) => check.answered) || dkim.some((check) => check.answered && !check.verified);
  return {
    mxVerified: mx.verified,
    spfVerified: spf.verified,
    dkimVerified,
    allVerified: mx.verified && spf.verified && dkimVerified,
    anyRecordSeen: mx.seen || spf.seen || dkim.some((check) => check.seen),
    known: { mx: mx.answered, spf: spf.answered, dkim: dkimKnown },
    issues: [...mx.issues, ...spf.issues, ...dkim.flatMap((check) => check.issues)],
    recommendations: dmarcRecommendations(required.domain, observed.dmarc),
  };
}
