import { requiredRecords } from '../domain/required-records';
import type { DnsObservation, Lookup } from './dns-observation';
import { checkDkimRecord, checkMx, checkSpf, dmarcRecommendations, judgeRecords } from './verification-rules';

const required = requiredRecords('example.com', ['k1', 'k2'], {
  mxHost: 'mx.mail.example.net',
  spfInclude: 'spf.mail.example.net',
  dkimDomain: 'dkim.mail.example.net',
});
const found = (...values: string[]): Lookup => ({ outcome: 'found', values });
const missing: Lookup = { outcome: 'missing' };
const timeout: Lookup = { outcome: 'timeout' };

const correct: DnsObservation = {
  mx: found('mx.mail.example.net'),
  txt: found('v=spf1 include:spf.mail.example.net ~all', 'google-site-verification=abc'),
  dkim: [found('k1.dkim.mail.example.net'), found('k2.dkim.mail.example.net')],
  dmarc: found('v=DMARC1; p=reject'),
};

describe('judgeRecords', () => {
  it('verifies everything when every record is right', () => {
    const verdict = judgeRecords(required, correct);
    expect(verdict).toEqual({
      mxVerified: true,
      spfVerified: true,
      dkimVerified: true,
      allVerified: true,
      anyRecordSeen: true,
      known: { mx: true, spf: true, dkim: true },
      issues: [],
      recommendations: [],
    });
  });

  it('reports every missing record and sees nothing', () => {
    const verdict = judgeRecords(required, { mx: missing, txt: missing, dkim: [missing, missing], dmarc: missing });
    expect(verdict.allVerified).toBe(false);
    expect(verdict.anyRecordSeen).toBe(false);
    expect(verdict.issues).toHaveLength(4);
    expect(verdict.issues[0]).toMatch(/^Missing MX record at example.com: add an MX record .* mx.mail.example.net with priority 10/);
    expect(verdict.issues[1]).toMatch(/^Missing SPF record at example.com: add a TXT record "v=spf1 include:spf.mail.example.net ~all"/);
    expect(verdict.issues[2]).toMatch(/^Missing DKIM CNAME record at k1._domainkey.example.com: add a CNAME pointing to k1.dkim.mail.example.net/);
  });

  it('counts a single correct record as DNS configured', () => {
    const verdict = judgeRecords(required, { mx: missing, txt: missing, dkim: [found('k1.dkim.mail.example.net'), missing], dmarc: missing });
    expect(verdict.anyRecordSeen).toBe(true);
    expect(verdict.dkimVerified).toBe(false);
  });

  it('turns timeouts into issues saying so', () => {
    const verdict = judgeRecords(required, { mx: timeout, txt: timeout, dkim: [timeout, timeout], dmarc: timeout });
    expect(verdict.allVerified).toBe(false);
    expect(verdict.known).toEqual({ mx: false, spf: false, dkim: false });
    expect(verdict.recommendations).toEqual([]);
    expect(verdict.issues).toHaveLength(4);
    verdict.issues.forEach((issue) => expect(issue).toMatch(/lookup timed out: check that the domain's name servers/));
  });

  it('knows DKIM is wrong when one selector answers wrong while the other times out', () => {
    const wrong = judgeRecords(required, { ...correct, dkim: [found('k1.elsewhere.example.org'), timeout] });
    expect(wrong.known).toEqual({ mx: true, spf: true, dkim: true });
    expect(wrong.dkimVerified).toBe(false);
    const unsure = judgeRecords(required, { ...correct, dkim: [found('k1.dkim.mail.example.net'), timeout] });
    expect(unsure.known.dkim).toBe(false);
  });
});

describe('dmarcRecommendations', () => {
  it('recommends a DMARC record when DNS says there is none, without blocking verification', () => {
    for (const lookup of [missing, found('v=spf1 include:x ~all'), found('v=DMARC10; p=none')]) {
      expect(dmarcRecommendations('example.com', lookup)).toEqual([expect.stringMatching(/^Recommended: no DMARC record at _dmarc\.example\.com: add a TXT record such as "v=DMARC1; p=none"/)]);
    }
    const verdict = judgeRecords(required, { ...correct, dmarc: missing });
    expect(verdict.allVerified).toBe(true);
    expect(verdict.issues).toEqual([]);
    expect(verdict.recommendations).toHaveLength(1);
  });

  it('says nothing when a DMARC record exists or DNS did not answer', () => {
    expect(dmarcRecommendations('example.com', found('v=DMARC1; p=quarantine; rua=mailto:d@example.com'))).toEqual([]);
    expect(dmarcRecommendations('example.com', found('v=DMARC1'))).toEqual([]);
    expect(dmarcRecommendations('example.com', timeout)).toEqual([]);
    expect(dmarcRecommendations('example.com', { outcome: 'error', code: 'ESERVFAIL' })).toEqual([]);
  });
});

describe('checkMx', () => {
  it('accepts our host case-insensitively and with a root dot', () => {
    expect(checkMx(required, found('MX.Mail.Example.NET.')).verified).toBe(true);
  });

  it('names a conflicting host next to ours', () => {
    const result = checkMx(required, found('mx.mail.example.net', 'aspmx.l.google.com'));
    expect(result).toMatchObject({ verified: false, seen: true });
    expect(result.issues).toEqual([
      'Conflicting MX host aspmx.l.google.com at example.com: remove that MX record so that mail goes only to mx.mail.example.net.',
    ]);
  });

  it('asks to replace an MX record that points elsewhere', () => {
    const result = checkMx(required, found('other.example.org'));
    expect(result).toMatchObject({ verified: false, seen: false });
    expect(result.issues).toHaveLength(2);
    expect(result.issues[1]).toMatch(/do not point to mx.mail.example.net: add an MX record/);
  });

  it('names a DNS failure with its code', () => {
    expect(checkMx(required, { outcome: 'error', code: 'ESERVFAIL' }).issues[0]).toMatch(/MX for example.com lookup failed \(ESERVFAIL\)/);
  });
});

describe('checkSpf', () => {
  it('accepts a merged record with other includes', () => {
    const result = checkSpf(required, found('v=spf1 include:_spf.google.com include:spf.mail.example.net ip4:192.0.2.1 -all'));
    expect(result).toEqual({ verified: true, seen: true, answered: true, issues: [] });
  });

  it('accepts an explicit + qualifier on our include', () => {
    expect(checkSpf(required, found('v=spf1 +include:spf.mail.example.net ~all')).verified).toBe(true);
  });

  it('refuses two SPF records even when one has our include', () => {
    const result = checkSpf(required, found('v=spf1 include:spf.mail.example.net ~all', 'v=spf1 include:_spf.google.com ~all'));
    expect(result).toMatchObject({ verified: false, seen: true });
    expect(result.issues[0]).toMatch(/^Found 2 SPF records at example.com, but only one is allowed: merge them/);
  });

  it('refuses an SPF record without our include', () => {
    const result = checkSpf(required, found('v=spf1 include:_spf.google.com ~all'));
    expect(result.verified).toBe(false);
    expect(result.issues[0]).toMatch(/does not include spf.mail.example.net: add "include:spf.mail.example.net"/);
  });

  it('does not mistake a look-alike include or a non-SPF TXT record', () => {
    expect(checkSpf(required, found('v=spf1 include:spf.mail.example.net.evil.org ~all')).verified).toBe(false);
    expect(checkSpf(required, found('v=spf10 include:spf.mail.example.net')).issues[0]).toMatch(/^Missing SPF record/);
  });
});

describe('checkDkimRecord', () => {
  it('names the wrong target and the right one', () => {
    const result = checkDkimRecord(required.dkim[0], found('k1.other-provider.com'));
    expect(result.verified).toBe(false);
    expect(result.issues).toEqual([
      'Wrong CNAME target at k1._domainkey.example.com: it points to k1.other-provider.com; change it to point to k1.dkim.mail.example.net.',
    ]);
  });

  it('does not accept one selector target for the other', () => {
    expect(checkDkimRecord(required.dkim[1], found('k1.dkim.mail.example.net')).verified).toBe(false);
  });
});
