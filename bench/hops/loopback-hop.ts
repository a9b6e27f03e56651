/**
 * What one message hop between two processes costs on this machine, before any code of ours runs: a
 * 200-byte ping-pong between this process and an echo child over loopback TCP, one message in flight.
 * Prints round trips/s and the CPU each side spends per round trip (this process by
 * `process.cpuUsage`, the echo by its own report). With a rate, one round trip starts every 1/rate s
 * instead of at once after the last: what a hop costs at a trickle, where each message wakes both sides.
 * Usage: node dist/bench/hops/loopback-hop.js [roundTrips=20000] [ratePerSecond]; prints JSON.
 */
import { fork } from 'node:child_process';
import { AddressInfo, createServer, connect, Socket } from 'node:net';

const MESSAGE = Buffer.alloc(200, 'x');

function cpuMicros(usage: NodeJS.CpuUsage): number {
  return usage.user + usage.system;
}

/** The child: echoes every chunk back, and answers its CPU time when asked over IPC. */
function echo(): void {
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    socket.on('data', (chunk) => socket.write(chunk));
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
  process.on('message', () => process.send?.({ cpu: cpuMicros(process.cpuUsage()) }));
}

async function main(): Promise<void> {
  const roundTrips = Number(process.argv[2] ?? 20_000);
  const rate = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
  const child = fork(__filename, ['echo']);
  const next = () => new Promise<{ port?: number; cpu?: number }>((resolve) => child.once('message', resolve));
  const { port } = await next();
  const socket: Socket = connect(port as number, '127.0.0.1');
  socket.setNoDelay(true);
  await new Promise((resolve) => socket.once('connect', resolve));

  child.send('cpu');
  const echoBefore = (await next()).cpu as number;
  const before = process.cpuUsage();
  const started = performance.now();
  let answered = 0;
  let sent = 0;
  await new Promise<void>((resolve) => {
    const send = () => {
      sent += 1;
      socket.write(MESSAGE);
    };
    const pacer = rate ? setInterval(() => sent < roundTrips && send(), 1000 / rate) : undefined;
    // Paced, two echoes may arrive in one read: the bytes tell how many came back.
    let bytes = 0;
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      answered = Math.floor(bytes / MESSAGE.length);
      if (answered >= roundTrips) {
        clearInterval(pacer);
        resolve();
      } else if (!pacer) send();
    });
    send();
  });
  const seconds = (performance.now() - started) / 1000;
  const clientMicros = cpuMicros(process.cpuUsage(before));
  child.send('cpu');
  const echoMicros = ((await next()).cpu as number) - echoBefore;
  socket.destroy();
  child.kill();
  const perTrip = (micros: number) => Math.round((micros / roundTrips) * 10) / 10;
  console.log(
    JSON.stringify({
      roundTrips,
      ...(rate ? { paced: rate } : {}),
      perSecond: Math.round(roundTrips / seconds),
      cpuMicrosPerRoundTrip: { client: perTrip(clientMicros), echo: perTrip(echoMicros) },
    }),
  );
}

if (process.argv[2] === 'echo') echo();
else
  void main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
