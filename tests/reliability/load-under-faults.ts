import {
  auditRowEvents,
  committedRowIds,
  EventAudit,
  FailureTally,
  FaultLog,
  IsolatedOrg,
  IsolatedStack,
  startIsolatedStack,
  SteadyRowWriter,
  tallyOutcomes,
} from '@platform/testing/reliability';
import { Receiver } from '@platform/testing';

export const WRITE_RATE_PER_SECOND = 20;
/** No client waits longer than this for an answer, whatever is down (the gateway's service timeout is 3 s). */
export const REQUEST_BOUND_MS = 10_000;

/** A stack of its own, an organization with a table, and a webhook on a loopback receiver for row.created. */
export interface LoadScenario {
  stack: IsolatedStack;
  org: IsolatedOrg;
  tableId: string;
  receiver: Receiver;
  hookPath: string;
  writer: SteadyRowWriter;
  faults: FaultLog;
}

export async function startScenario(label: string): Promise<LoadScenario> {
  const stack = await startIsolatedStack(label, {
    // A killed worker's jobs come back within a couple of seconds rather than the production 30 s.
    WEBHOOK_JOB_LOCK_MS: '2000',
    WEBHOOK_STALLED_CHECK_MS: '1000',
  });
  const receiver = await Receiver.start();
  try {
    const org = await stack.createOrg();
    const table = await org.api.post('/tables', { name: `Load ${label}`, fields: [{ name: 'N', field_type: 'number' }] });
    if (table.status !== 201) throw new Error(`table create: ${table.status} ${JSON.stringify(table.body)}`);
    const hookPath = `/${label}`;
    const hook = await org.api.post('/webhooks', { name: label, url: receiver.url(hookPath), events: ['row.created'] });
    if (hook.status !== 201) throw new Error(`webhook create: ${hook.status} ${JSON.stringify(hook.body)}`);
    const writer = new SteadyRowWriter({
      gatewayUrl: stack.gatewayUrl,
      key: org.key,
      tableId: table.body.data.id,
      ratePerSecond: WRITE_RATE_PER_SECOND,
      timeoutMs: REQUEST_BOUND_MS,
    });
    return { stack, org, tableId: table.body.data.id, receiver, hookPath, writer, faults: new FaultLog() };
  } catch (error) {
    await receiver.close();
    await stack.stop();
    throw error;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ScenarioReport {
  tally: FailureTally;
  ackedRowIds: string[];
  committed: string[];
  lostAcked: string[];
  audit: EventAudit;
  /** Committed rows whose event the receiver never got. */
  undelivered: string[];
  /** For the report: the first undelivered rows, with the fault window their write fell in. */
  undeliveredDetail: Array<{ rowId: string; seq: number; createdAt: string; window?: string }>;
  /** Receiver requests whose X-Webhook-Id is not the event id JetStream holds for that row. */
  mismatchedIds: number;
  deliveries: number;
  duplicateDeliveries: number;
}

/** Rows the receiver got, by row id, with the X-Webhook-Id each request carried. */
function receivedByRow(scenario: LoadScenario): Map<string, string[]> {
  const byRow = new Map<string, string[]>();
  for (const request of scenario.receiver.at(scenario.hookPath)) {
    const payload = JSON.parse(request.body.toString('utf8'));
    const list = byRow.get(payload.data.row_id) ?? [];
    list.push(String(request.headers['x-webhook-id']));
    byRow.set(payload.data.row_id, list);
  }
  return byRow;
}

/** Stops the load, then counts what was acknowledged, committed, published and delivered. */
export async function audit(scenario: LoadScenario, deliveryTimeoutMs: number): Promise<ScenarioReport> {
  const outcomes = await scenario.writer.stop();
  const tally = tallyOutcomes(outcomes, scenario.faults);
  const ackedRowIds = outcomes.filter((o) => o.result === 'acked').map((o) => o.rowId as string);
  const committed = await committedRowIds(scenario.org.api, scenario.tableId);
  const committedSet = new Set(committed);
  const audit = await auditRowEvents(scenario.stack.nats.url, scenario.org.orgId, committed, 1);
  const deadline = Date.now() + deliveryTimeoutMs;
  let byRow = receivedByRow(scenario);
  while (committed.some((id) => !byRow.has(id)) && Date.now() < deadline) {
    await sleep(500);
    byRow = receivedByRow(scenario);
  }
  let mismatchedIds = 0;
  for (const [rowId, ids] of byRow) mismatchedIds += ids.filter((id) => id !== audit.eventIdOfRow.get(rowId)).length;
  const deliveries = [...byRow.values()].reduce((sum, ids) => sum + ids.length, 0);
  const undelivered = committed.filter((id) => !byRow.has(id));
  const undeliveredDetail = await Promise.all(
    undelivered.slice(0, 20).map(async (rowId) => {
      const row = (await scenario.org.api.get(`/tables/${scenario.tableId}/rows/${rowId}`)).body.data;
      const outcome = outcomes.find((o) => o.seq === row.data.n);
      return { rowId, seq: row.data.n, createdAt: row.created_at, window: outcome && scenario.faults.windowOf(outcome)?.label };
    }),
  );
  return {
    tally,
    ackedRowIds,
    committed,
    lostAcked: ackedRowIds.filter((id) => !committedSet.has(id)),
    audit,
    undelivered,
    undeliveredDetail,
    mismatchedIds,
    deliveries,
    duplicateDeliveries: deliveries - byRow.size,
  };
}

/** One line of figures for docs/reliability.md, printed by each test. */
export function describeReport(title: string, report: ScenarioReport, faults: FaultLog): string {
  return JSON.stringify(
    {
      test: title,
      requestsSent: report.tally.sent,
      acked: report.tally.acked,
      committedRows: report.committed.length,
      faults: faults.windows.map((w) => ({ fault: w.label, from: new Date(w.from).toISOString(), outageMs: w.to - w.from })),
      failedInsideFaultWindows: report.tally.failedByWindow,
      failedOutsideFaultWindows: report.tally.failedOutsideWindows.length,
      hangs: report.tally.hangs.length,
      slowestRequestMs: report.tally.slowestMs,
      ackedButLost: report.lostAcked.length,
      eventsLost: report.audit.rowsWithoutEvent.length,
      duplicateEventsInStream: report.audit.rowsWithSeveralEvents.length,
      undeliveredToWebhook: report.undelivered.length,
      undeliveredDetail: report.undeliveredDetail,
      webhookRequests: report.deliveries,
      duplicateWebhookDeliveries: report.duplicateDeliveries,
    },
    null,
    2,
  );
}

/** What every fault test asserts once the load has stopped. */
export function expectNothingLost(report: ScenarioReport): void {
  expect(report.tally.hangs.map((o) => o.seq)).toEqual([]);
  expect(report.tally.unclean).toEqual([]);
  expect(report.tally.failedOutsideWindows).toEqual([]);
  expect(report.lostAcked).toEqual([]);
  expect(report.audit.rowsWithoutEvent).toEqual([]);
  expect(report.audit.rowsWithSeveralEvents).toEqual([]);
  expect(report.audit.eventsForUnknownRows).toEqual([]);
  expect(report.undelivered).toEqual([]);
  expect(report.mismatchedIds).toBe(0);
  expect(report.tally.acked).toBeGreaterThan(0);
}
