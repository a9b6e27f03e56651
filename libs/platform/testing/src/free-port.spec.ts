import { createServer, Server } from 'node:net';
import { freePort } from './free-port';

const listen = (port: number, host: string) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });

describe('freePort', () => {
  it('hands out ports below the ephemeral range, never the same one twice', async () => {
    const ports = [];
    for (let i = 0; i < 40; i += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) expect(port >= 20_000 && port < 32_768).toBe(true);
  });

  it("draws from this Jest worker's own stripe of the range", async () => {
    const stripe = (Number(process.env.TEST_PORT_STRIPE ?? 0) + Number(process.env.JEST_WORKER_ID ?? 0)) % 8;
    for (let i = 0; i < 10; i += 1) expect((await freePort()) % 8).toBe((20_000 + stripe) % 8);
  });

  it('gives a port that a server can bind on every address', async () => {
    const port = await freePort();
    const server = await listen(port, '0.0.0.0');
    await new Promise((done) => server.close(done));
  });
});
