/**
 * Query isolation: one organization runs parallel worst-case list requests (a wide `or` of `contains`
 * filters) on a 200,000-row table while another organization creates rows at a steady rate; the
 * other organization's creates must see no errors and a p99 under 200 ms. Not part of CI.
 * Usage: npm run build && node dist/bench/isolation/run.js
 * Knobs: ISOLATION_ROWS (200000), ISOLATION_HEAVY (6 parallel lists), ISOLATION_DURATION_S (30),
 * ISOLATION_CREATES_PER_S (20), ISOLATION_PATTERN_LENGTH (4; 2 defeats the trigram index).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { startIsolatedStack } from '@platform/testing/reliability';

const ROWS = Number(process.env.ISOLATION_ROWS ?? 200_000);
const HEAVY = Number(process.env.ISOLATION_HEAVY ?? 6);
const DURATION_S = Number(process.env.ISOLATION_DURATION_S ?? 30);
const CREATES_PER_S = Number(process.env.ISOLATION_CREATES_PER_S ?? 20);
const PATTERN_LENGTH = Number(process.env.ISOLATION_PATTERN_LENGTH ?? 4);
const log = (line: string) => process.stdout.write(`${line}\n`);

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
}

/** Ten `contains` on three text fields, each a pattern that matches (almost) nothing: every row is a candidate. */
function worstCaseFilter(): string {
  const pattern = () => randomBytes(8).toString('hex').slice(0, PATTERN_LENGTH);
  const or = Array.from({ length: 10 }, (_, i) => ({ [['title', 'notes', 'email'][i % 3]]: { contains: pattern() } }));
  return encodeURIComponent(JSON.stringify({ or }));
}

async function seed(databaseUrl: string, tableId: string): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows: fields } = await db.query('SELECT slug, column_name FROM tables.fields WHERE table_id = $1', [tableId]);
    const column = Object.fromEntries(fields.map((f: { slug: string; column_name: string }) => [f.slug, `"${f.column_name}"`]));
    const { rows: [table] } = await db.query('SELECT storage_name FROM tables.user_tables WHERE id = $1', [tableId]);
    await db.query(
      `INSERT INTO tables."${table.storage_name}" (id, created_at, updated_at, ${column.title}, ${column.notes}, ${column.email})
       SELECT gen_random_uuid(), now() - g * interval '1 second', now(), 'Item ' || md5(g::text), 'A note about ' || md5((g * 7)::text), 'user' || g || '@example.com'
       FROM generate_series(1, $1::int) g`,
      [ROWS],
    );
    await db.query('UPDATE tables.row_counts SET n = n + $2 WHERE table_id = $1 AND slot = 0', [tableId, ROWS]);
    await db.query(`VACUUM ANALYZE tables."${table.storage_name}"`);
  } finally {
    await db.end();
  }
}

async function main(): Promise<void> {
  // The production deadline (10 s), as in the reported incident; DATABASE_POOL_ORGANIZATION_SHARE passes through.
  const share = process.env.DATABASE_POOL_ORGANIZATION_SHARE;
  const stack = await startIsolatedStack('isolation-bench', {
    LOG_LEVEL: 'warn',
    NATS_REQUEST_TIMEOUT_MS: '10000',
    ...(share ? { DATABASE_POOL_ORGANIZATION_SHARE: share } : {}),
  });
  try {
    const heavy = await stack.createOrg();
    const victim = await stack.createOrg();
    const searchable = { searchable: true };
    const fields = [
      { name: 'Title', field_type: 'text', options: searchable },
      { name: 'Notes', field_type: 'long_text', options: searchable },
      { name: 'Email', field_type: 'email', options: searchable },
    ];
    const big = await heavy.api.post('/tables', { name: 'Big', fields });
    const small = await victim.api.post('/tables', { name: 'Small', fields });
    const bigId = big.body.data.id as string;
    const smallId = small.body.data.id as string;
    log(`seeding ${ROWS} rows ...`);
    await seed(stack.env.DATABASE_URL, bigId);

    const stopAt = Date.now() + DURATION_S * 1000;
    const lists = { done: 0, byStatus: {} as Record<string, number>, ms: [] as number[] };
    const heavyLoops = Array.from({ length: HEAVY }, async () => {
      while (Date.now() < stopAt) {
        const started = Date.now();
        const res = await fetch(`${stack.gatewayUrl}/tables/${bigId}/rows?limit=50&filter=${worstCaseFilter()}`, { headers: { authorization: `Bearer ${heavy.key}` } });
        await res.arrayBuffer();
        lists.done += 1;
        lists.byStatus[res.status] = (lists.byStatus[res.status] ?? 0) + 1;
        lists.ms.push(Date.now() - started);
      }
    });

    // The victim: an open model, so a slow answer never delays the next create.
    const creates: Promise<{ status: number; ms: number }>[] = [];
    const writer = (async () => {
      for (let i = 0; Date.now() < stopAt; i += 1) {
        const started = Date.now();
        creates.push(
          fetch(`${stack.gatewayUrl}/tables/${smallId}/rows`, {
            method: 'POST',
            headers: { authorization: `Bearer ${victim.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ data: { title: `row ${i}` } }),
            signal: AbortSignal.timeout(15_000),
          }).then(
            async (res) => (await res.arrayBuffer(), { status: res.status, ms: Date.now() - started }),
            () => ({ status: 0, ms: Date.now() - started }),
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 1000 / CREATES_PER_S));
      }
    })();
    await Promise.all([writer, ...heavyLoops]);
    const results = await Promise.all(creates);
    const ms = results.map((r) => r.ms).sort((a, b) => a - b);
    const listMs = lists.ms.sort((a, b) => a - b);
    const report = {
      date: new Date().toISOString(),
      // The figure means little on a machine busy with other work: the load average says how busy it was.
      loadAverage: loadavg().map((n) => Math.round(n * 10) / 10),
      organizationShare: stack.env.DATABASE_POOL_ORGANIZATION_SHARE ?? '0.2 (default; 0.5 alone)',
      rows: ROWS,
      heavyInParallel: HEAVY,
      patternLength: PATTERN_LENGTH,
      durationS: DURATION_S,
      heavyLists: { requests: lists.done, statuses: lists.byStatus, p50Ms: percentile(listMs, 50), p99Ms: percentile(listMs, 99), maxMs: listMs[listMs.length - 1] },
      otherOrgCreates: {
        requests: results.length,
        errors: results.filter((r) => r.status !== 201).length,
        errorStatuses: results.filter((r) => r.status !== 201).map((r) => r.status),
        p50Ms: percentile(ms, 50),
        p99Ms: percentile(ms, 99),
        maxMs: ms[ms.length - 1],
      },
    };
    log(JSON.stringify(report, null, 2));
    process.exitCode = report.otherOrgCreates.errors === 0 && report.otherOrgCreates.p99Ms < 200 ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
