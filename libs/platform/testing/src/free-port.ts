import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * Ports are drawn below Linux's ephemeral range (32768-60999): a port the kernel picks for `listen(0)`
 * is also the local end the kernel gives outgoing connections, so it can be taken by a client socket
 * (to Postgres, NATS, Redis) between this check and the moment a child process binds it.
 */
const LOWEST = 20_000;
const HIGHEST = 32_767;
/**
 * Each Jest worker draws from its own stripe of the range (the parent process, without a worker id, from
 * stripe 0), so two processes cannot pick the same port while its server is still starting. A suite that
 * runs beside another starts its stripes further on (`TEST_PORT_STRIPE`: the reliability suite beside the
 * e2e suite's parent and its four workers).
 */
const STRIPES = 8;
const stripe = (Number(process.env.TEST_PORT_STRIPE ?? 0) + Number(process.env.JEST_WORKER_ID ?? 0)) % STRIPES;
const handedOut = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    // 0.0.0.0: a server started with this port may bind every address, so every address must be free.
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A TCP port that was free a moment ago on every IPv4 address and that this process has not handed out before. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = LOWEST + stripe + STRIPES * randomInt(Math.floor((HIGHEST - LOWEST - stripe) / STRIPES) + 1);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${HIGHEST}`);
}
