import { EVENTS_STREAM } from '@contracts';
import { connect, NatsConnection } from 'nats';
import { apiClient } from '../api-client';
import { committedRowIds } from '../reliability/delivery-audit';
import { SteadyRowWriter, WriteOutcome } from '../reliability/steady-row-writer';
import { ClusterStack, RECEIVER_PORTS } from './cluster-stack';
import { GatewayBalancer } from './gateway-balancer';

export interface HostLossSettings {
  ratePerSecond: number;
  /** Load before the loss; its last 10 s give the baseline p99. */
  warmupMs: number;
  /** How long the lost host stays away. */
  downMs: number;
  /** Load after the host is back, before the rolling deploy. */
  settleMs: number;
  /** How long the receivers may take to see every event once the load stops. */
  drainTimeoutMs: number;
}

export const DEFAULT_HOST_LOSS: HostLossSettings = { ratePerSecond: 30, warmupMs: 20_000, downMs: 20_000, settleMs: 10_000, drainTimeoutMs: 90_000 };

/** p99 of creates "back to its level": under twice the baseline's, or the baseline's plus 50 ms on a quick baseline. */
export const recoveredBound = (baselineP99: number) => Math.max(2 * baselineP99, baselineP99 + 50);

export interface NatsCheck {
  at: number;
  /** The stream answered with a leader on a surviving node and its replicas. */
  streamLeader?: string;
  /** Messages the durable consumer had handed to the fan-out and had acked (stream sequences). */
  consumerDelivered?: number;
  consumerAckFloor?: number;
  error?: string;
}

export interface HostLossReport {
  settings: HostLossSettings;
  lostHost: string;
  sent: number;
  acked: number;
  /** Acknowledged creates whose row the table does not hold (none allowed). */
  ackedButLost: string[];
  /** Failed requests to the lost host's gateway while it was away (allowed). */
  failedOnLostHost: number;
  /**
   * Failed requests to a surviving gateway, or to any gateway during the rolling deploy (none allowed):
   * a create whose message or service was lost with the host is sent again under its call id.
   */
  violations: WriteOutcome[];
  baselineP99Ms: number;
  /** Whole seconds from the loss after which the p99 of creates through the survivors stayed under the bound until the host was started again. */
  recoveryMs: number;
  /** p99 of creates through the surviving gateways, per second from the loss until the host is started again. */
  p99BySecondAfterLoss: number[];
  /** From starting the lost host's NATS node and processes again until all were ready. */
  hostReturnMs: number;
  /** p99 of creates while it came back (a copy of every process starting at once on the same CPUs). */
  hostReturnP99Ms: number;
  rollingDeployMs: number;
  /** p99 of creates while the rolling deploy ran. */
  rollingDeployP99Ms: number;
  committedRows: number;
  /** Per receiver: committed rows whose row.created it never got. */
  missing: Record<number, string[]>;
  /** Per receiver: rows it got under two different webhook-ids (a duplicate de-duplication cannot catch). */
  duplicatesAfterDedupe: Record<number, string[]>;
  /** Per receiver: the same webhook-id received more than once (allowed: receivers de-duplicate on it). */
  redeliveries: Record<number, number>;
  /** Deliveries of rows no client was told were created (their create failed with the host, yet committed). */
  rowsCommittedWithoutAck: number;
  /** Stream and consumer info asked of the surviving nodes every second while the host was away. */
  natsChecks: NatsCheck[];
  /** From the loss until JetStream answered again (a new leader elected if the lost node led). */
  jetStreamBackMs: number;
  /** Checks that failed after JetStream first answered again (none allowed). */
  natsFailuresAfterElection: NatsCheck[];
  /**
   * The durable consumer handed out further events while the host was away (its ack floor waits for the
   * events the lost fan-out held, until their ack wait lapses), and receivers got webhooks meanwhile.
   */
  consumerAdvancedWhileDown: boolean;
  deliveriesWhileDown: number;
  secondsToDeliverAll: number;
}

/** The gateway Deployment's preStop pause (deploy/k8s/base/apps/gateway.yaml): its pod leaves the Service first. */
const GATEWAY_PRESTOP_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function p99(durations: number[]): number {
  if (durations.length === 0) return 0;
  const sorted = [...durations].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];
}

const latenciesIn = (outcomes: WriteOutcome[], from: number, to: number, gatewayUrls?: string[]) =>
  outcomes
    .filter((o) => o.startedAt >= from && o.startedAt < to && o.result === 'acked' && (!gatewayUrls || gatewayUrls.includes(o.gatewayUrl)))
    .map((o) => o.endedAt - o.startedAt);

async function checkNats(nc: NatsConnection, durable: string): Promise<NatsCheck> {
  const at = Date.now();
  try {
    const jsm = await nc.jetstreamManager({ timeout: 2_000 });
    const stream = await jsm.streams.info(EVENTS_STREAM);
    const consumer = await jsm.consumers.info(EVENTS_STREAM, durable);
    return { at, streamLeader: stream.cluster?.leader, consumerDelivered: consumer.delivered.stream_seq, consumerAckFloor: consumer.ack_floor.stream_seq };
  } catch (error) {
    return { at, error: (error as Error).message };
  }
}

/**
 * Item 2 of issue 33: steady creates through every gateway (a balancer in front, as a Service would be)
 * with two webhooks on receivers in their own namespace; one host killed whole and brought back after
 * `downMs`; then a rolling deploy of every host in turn. Measures what the test asserts.
 */
export async function runHostLossScenario(stack: ClusterStack, settings: HostLossSettings, log: (line: string) => void): Promise<HostLossReport> {
  const [first, lost] = stack.hosts;
  const lostHost = lost.network.name;
  const org = await stack.admin<{ id: string }>('org', 'create', '--name', 'Cluster', '--plan', '250');
  const { key } = await stack.admin<{ key: string }>('key', 'create', '--org', org.id, '--scopes', '*');
  const api = apiClient(key, first.gatewayUrl);
  const table = await api.post('/tables', { name: 'Cluster load', fields: [{ name: 'N', field_type: 'number' }] });
  if (table.status !== 201) throw new Error(`table create: ${table.status} ${JSON.stringify(table.body)}`);
  const tableId = table.body.data.id as string;
  for (const port of RECEIVER_PORTS) {
    const hook = await api.post('/webhooks', { name: `receiver ${port}`, url: stack.receiverUrl(port, '/hook'), events: ['row.created'] });
    if (hook.status !== 201) throw new Error(`webhook create: ${hook.status} ${JSON.stringify(hook.body)}`);
  }

  const balancer = new GatewayBalancer(stack.hosts);
  balancer.start();
  const writer = new SteadyRowWriter({ gatewayUrl: balancer.pick, key, tableId, ratePerSecond: settings.ratePerSecond, timeoutMs: 30_000 });
  // Watches JetStream from a surviving node only.
  const survivors = stack.hosts.filter((host) => host !== lost);
  const nc = await connect({ servers: survivors.map((host) => host.nats.url), maxReconnectAttempts: -1 });
  const natsChecks: NatsCheck[] = [];
  const durable = stack.env.WEBHOOK_CONSUMER_NAME ?? 'webhook-dispatcher';
  try {
    writer.start();
    log(`load: ${settings.ratePerSecond} creates/s through ${stack.hosts.length} gateways; warming up ${settings.warmupMs / 1000} s`);
    await sleep(settings.warmupMs);

    const lostAt = Date.now();
    await stack.killHost(lostHost);
    log(`killed ${lostHost} (its NATS node and every process)`);
    while (Date.now() < lostAt + settings.downMs) {
      natsChecks.push(await checkNats(nc, durable));
      await sleep(1_000);
    }
    const restartAt = Date.now();
    await stack.startHost(lostHost);
    const backAt = Date.now();
    log(`${lostHost} back and ready ${((backAt - lostAt) / 1000).toFixed(1)} s after the loss`);
    await sleep(settings.settleMs);

    const deployFrom = Date.now();
    for (const host of stack.hosts) {
      // As Kubernetes terminates a pod: out of the Service's endpoints, the preStop pause, then SIGTERM.
      balancer.withdraw(host.gatewayUrl);
      await sleep(GATEWAY_PRESTOP_MS);
      await stack.redeployHost(host.network.name);
      balancer.restore(host.gatewayUrl);
      log(`rolling deploy: every process of ${host.network.name} restarted`);
    }
    const deployTo = Date.now();
    await sleep(3_000);
    const outcomes = await writer.stop();
    balancer.stop();

    const lostGateway = lost.gatewayUrl;
    const violations: WriteOutcome[] = [];
    let failedOnLostHost = 0;
    for (const outcome of outcomes) {
      if (outcome.result === 'acked') continue;
      const duringLoss = outcome.endedAt >= lostAt && outcome.startedAt <= backAt;
      if (outcome.gatewayUrl === lostGateway && duringLoss) failedOnLostHost += 1;
      else violations.push(outcome);
    }
    const baselineP99Ms = p99(latenciesIn(outcomes, lostAt - 10_000, lostAt));
    const bound = recoveredBound(baselineP99Ms);
    const survivingGateways = survivors.map((host) => host.gatewayUrl);
    const p99BySecondAfterLoss: number[] = [];
    for (let from = lostAt; from < restartAt; from += 1_000) p99BySecondAfterLoss.push(p99(latenciesIn(outcomes, from, from + 1_000, survivingGateways)));
    // Back to its level: the p99 of every create from then until the host is started again is under the bound.
    let recoveredAfter = 0;
    while (lostAt + recoveredAfter * 1_000 < restartAt && p99(latenciesIn(outcomes, lostAt + recoveredAfter * 1_000, restartAt, survivingGateways)) > bound) recoveredAfter += 1;

    const committed = await committedRowIds(api, tableId);
    const drainFrom = Date.now();
    const received = () => {
      const byReceiver = new Map<number, Map<string, Set<string>>>();
      const seen = new Map<number, Map<string, number>>();
      for (const delivery of stack.deliveries) {
        if (delivery.event?.event !== 'row.created') continue;
        const rowId = delivery.event.data.row_id as string;
        const rows = byReceiver.get(delivery.receiver) ?? byReceiver.set(delivery.receiver, new Map()).get(delivery.receiver)!;
        (rows.get(rowId) ?? rows.set(rowId, new Set()).get(rowId)!).add(delivery.webhookId);
        const ids = seen.get(delivery.receiver) ?? seen.set(delivery.receiver, new Map()).get(delivery.receiver)!;
        ids.set(delivery.webhookId, (ids.get(delivery.webhookId) ?? 0) + 1);
      }
      return { byReceiver, seen };
    };
    const missingNow = () => {
      const { byReceiver } = received();
      return Object.fromEntries(RECEIVER_PORTS.map((port) => [port, committed.filter((id) => !byReceiver.get(port)?.has(id))]));
    };
    while (Object.values(missingNow()).some((ids) => ids.length > 0) && Date.now() < drainFrom + settings.drainTimeoutMs) await sleep(1_000);
    const secondsToDeliverAll = (Date.now() - drainFrom) / 1000;
    const { byReceiver, seen } = received();
    const ackedOutcomes = outcomes.filter((o) => o.result === 'acked');
    const acked = new Set(ackedOutcomes.map((o) => o.rowId));
    const committedSet = new Set(committed);
    const downWhile = natsChecks.filter((check) => check.consumerDelivered !== undefined);
    const deliveriesWhileDown = stack.deliveries.filter((delivery) => delivery.at > lostAt + 5_000 && delivery.at < restartAt).length;

    return {
      settings,
      lostHost,
      sent: outcomes.length,
      acked: ackedOutcomes.length,
      ackedButLost: ackedOutcomes.filter((o) => !o.rowId || !committedSet.has(o.rowId)).map((o) => o.rowId ?? `seq ${o.seq}: no id`),
      failedOnLostHost,
      violations,
      baselineP99Ms,
      recoveryMs: recoveredAfter * 1_000,
      p99BySecondAfterLoss,
      hostReturnMs: backAt - restartAt,
      hostReturnP99Ms: p99(latenciesIn(outcomes, restartAt, backAt)),
      rollingDeployMs: deployTo - deployFrom,
      rollingDeployP99Ms: p99(latenciesIn(outcomes, deployFrom, deployTo)),
      committedRows: committed.length,
      missing: missingNow(),
      duplicatesAfterDedupe: Object.fromEntries(RECEIVER_PORTS.map((port) => [port, [...(byReceiver.get(port) ?? new Map<string, Set<string>>())].filter(([, ids]) => ids.size > 1).map(([id]) => id)])),
      redeliveries: Object.fromEntries(RECEIVER_PORTS.map((port) => [port, [...(seen.get(port)?.values() ?? [])].filter((n) => n > 1).length])),
      rowsCommittedWithoutAck: committed.filter((id) => !acked.has(id)).length,
      natsChecks,
      jetStreamBackMs: (natsChecks.find((check) => !check.error)?.at ?? Infinity) - lostAt,
      natsFailuresAfterElection: natsChecks.slice(natsChecks.findIndex((check) => !check.error)).filter((check) => check.error),
      consumerAdvancedWhileDown: downWhile.length >= 2 && downWhile[downWhile.length - 1].consumerDelivered! > downWhile[0].consumerDelivered!,
      deliveriesWhileDown,
      secondsToDeliverAll,
    };
  } finally {
    await writer.stop();
    balancer.stop();
    await nc.close();
  }
}
