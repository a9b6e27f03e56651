import { connect, NatsConnection } from 'nats';

export function natsServers(url: string): string[] {
  return url.split(',').map((server) => server.trim()).filter(Boolean);
}

/** Options every NATS client of ours uses: reconnect forever, so a NATS restart heals by itself. */
export function natsClientOptions(url: string, name: string) {
  return {
    servers: natsServers(url),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    waitOnFirstConnect: true,
    pingInterval: 10_000,
    // Without it every request captures two stack traces up front (for a timeout that rarely comes); the
    // callers log the subject and request id of a timeout themselves.
    noAsyncTraces: true,
  };
}

export function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect(natsClientOptions(url, name));
}
