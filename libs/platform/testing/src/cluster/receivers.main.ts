/**
 * The cluster test's webhook receivers, run in a namespace of their own: one HTTP server per port in
 * RECEIVER_PORTS, each answering 204 at once and printing one JSON line per delivery on stdout
 * (`{receiver, webhookId, event}`) for the test to collect.
 */
import { createServer } from 'node:http';

const host = process.env.RECEIVER_HOST ?? '0.0.0.0';
const ports = (process.env.RECEIVER_PORTS ?? '').split(',').map(Number).filter(Boolean);

for (const port of ports) {
  createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let event: unknown;
      try {
        event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        event = undefined;
      }
      process.stdout.write(`${JSON.stringify({ receiver: port, webhookId: req.headers['webhook-id'], event })}\n`);
      res.writeHead(204).end();
    });
  }).listen(port, host, () => process.stdout.write(`${JSON.stringify({ listening: port })}\n`));
}
