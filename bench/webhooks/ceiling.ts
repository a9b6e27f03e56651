/**
 * The ceiling: one process POSTing signed bodies of a given size to a receiver as fast as it can.
 * Usage: node dist/bench/webhooks/ceiling.js <url> <bodyBytes> <durationMs> <inFlight>; prints JSON, with the
 * process's own CPU per request: the reference a worker's CPU per delivery is compared with across machines.
 */
import { signWebhookBody } from '@contracts';
import { Agent, request } from 'undici';
import { round } from '../lib/bench-http';

async function main(): Promise<void> {
  const [url, bodyBytes, durationMs, inFlight] = process.argv.slice(2);
  const body = JSON.stringify({ id: 'ceiling', event: 'row.created', pad: 'x'.repeat(Math.max(0, Number(bodyBytes) - 40)) });
  const secret = 'whsec_ceiling';
  const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: Number(inFlight) });
  const deadline = Date.now() + Number(durationMs);
  let sent = 0;
  let failed = 0;
  const loop = async () => {
    while (Date.now() < deadline) {
      const response = await request(url, {
        method: 'POST',
        dispatcher,
        headers: { 'content-type': 'application/json', 'x-webhook-signature': signWebhookBody(secret, body), 'x-webhook-id': 'ceiling' },
        body,
      });
      await response.body.dump();
      if (response.statusCode >= 200 && response.statusCode < 300) sent += 1;
      else failed += 1;
    }
  };
  const started = Date.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(Array.from({ length: Number(inFlight) }, loop));
  const seconds = (Date.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMsPerRequest = round((cpu.user + cpu.system) / 1000 / Math.max(1, sent), 3);
  process.stdout.write(`${JSON.stringify({ requests: sent, failed, perSecond: Math.round(sent / seconds), cpuMsPerRequest })}\n`);
  await dispatcher.close();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
