import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { BLACKHOLE_SUFFIX, clearTestDnsRecords, setTestDnsRecords, TestDnsRecord, testDatabaseUrl } from '@platform/testing';

export interface DnsRecordView {
  type: 'MX' | 'TXT' | 'CNAME';
  name: string;
  value: string;
  priority?: number;
}

/** A fresh name under a test-only zone, so files and runs never share records. */
export function uniqueDomain(zone = 'dns-e2e.test'): string {
  return `d${randomBytes(5).toString('hex')}.${zone}`;
}

export function blackholeDomain(): string {
  return uniqueDomain(BLACKHOLE_SUFFIX);
}

export interface Publication {
  mx?: TestDnsRecord[];
  txt?: TestDnsRecord[];
  dkim?: [TestDnsRecord[], TestDnsRecord[]];
}

const published = new Set<string>();

/** Publishes the domain's records on the loopback DNS server: exactly what it asked for, unless overridden. */
export async function publish(records: DnsRecordView[], overrides: Publication = {}): Promise<void> {
  const [mx, spf, dkim1, dkim2] = records;
  const root = [
    ...(overrides.mx ?? [{ type: 'MX' as const, exchange: mx.value, priority: mx.priority }]),
    ...(overrides.txt ?? [{ type: 'TXT' as const, value: spf.value }]),
  ];
  const dkim = overrides.dkim ?? [[{ type: 'CNAME', target: dkim1.value }], [{ type: 'CNAME', target: dkim2.value }]];
  await setTestDnsRecords(mx.name, root);
  await setTestDnsRecords(dkim1.name, dkim[0]);
  await setTestDnsRecords(dkim2.name, dkim[1]);
  [mx.name, dkim1.name, dkim2.name].forEach((name) => published.add(name));
}

export async function unpublishAll(): Promise<void> {
  await Promise.all([...published].map((name) => clearTestDnsRecords(name)));
  published.clear();
}

async function withDatabase<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Legitimate test setup: the domain was added longer ago than the verification window. */
export async function ageDomain(domainId: string, hours: number): Promise<void> {
  await withDatabase((client) =>
    client.query(`UPDATE domains.domains SET created_at = now() - make_interval(hours => $2) WHERE id = $1`, [domainId, hours]),
  );
}

/** Legitimate test setup: time has come for the domains' next background check, as the schedule would bring it. */
export async function makeDue(...domainIds: string[]): Promise<void> {
  await withDatabase((client) => client.query('UPDATE domains.domains SET next_check_at = now() WHERE id = ANY($1::uuid[])', [domainIds]));
}

/** When the background re-check will next look at the domain (null: never). */
export async function nextCheckOf(domainId: string): Promise<Date | null> {
  return withDatabase(async (client) => {
    const { rows } = await client.query('SELECT next_check_at FROM domains.domains WHERE id = $1', [domainId]);
    return rows[0]?.next_check_at ?? null;
  });
}
