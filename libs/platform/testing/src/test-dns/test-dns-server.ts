import { once } from 'node:events';
import type { Socket } from 'node:dgram';
import type { Server as TcpServer } from 'node:net';
import { Packet, TCPServer, UDPServer } from 'dns2';
import Redis from 'ioredis';
import { isBlackholed, normalizeDnsName, TEST_DNS_RECORD_TTL_SECONDS, TestDnsRecord, testDnsKey, testDnsQueriesKey, testDnsRedisUrl } from './test-dns-records';

export interface TestDnsServer {
  /** `127.0.0.1:port`, ready for DNS_SERVERS. */
  servers: string;
  close(): Promise<void>;
}

type DnsRequest = InstanceType<typeof Packet>;
type Send = (response: DnsRequest) => unknown;

function toAnswer(name: string, record: TestDnsRecord): Record<string, unknown> {
  // TTL 0: a resolver must never answer a later verification from its cache.
  const base = { name, class: Packet.CLASS.IN, ttl: 0 };
  switch (record.type) {
    case 'MX':
      return { ...base, type: Packet.TYPE.MX, exchange: normalizeDnsName(record.exchange), priority: record.priority ?? 10 };
    case 'TXT':
      return { ...base, type: Packet.TYPE.TXT, data: record.value };
    case 'CNAME':
      return { ...base, type: Packet.TYPE.CNAME, domain: normalizeDnsName(record.target) };
  }
}

// RFC 1035 response codes (dns2's typings leave out its RCODE table).
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 } as const;

const QUERY_TYPES: Record<number, TestDnsRecord['type']> = { [Packet.TYPE.MX]: 'MX', [Packet.TYPE.TXT]: 'TXT', [Packet.TYPE.CNAME]: 'CNAME' };

/**
 * Answers from the records tests put in Redis: NXDOMAIN for unknown names, silence for blackholed ones.
 * Counts every question per name, so tests can tell how often a name was looked up.
 */
function answerer(redis: Redis) {
  return async (request: DnsRequest, send: Send): Promise<void> => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    if (!question) {
      send(response);
      return;
    }
    await redis
      .multi()
      .incr(testDnsQueriesKey(question.name))
      .expire(testDnsQueriesKey(question.name), TEST_DNS_RECORD_TTL_SECONDS)
      .exec()
      .catch(() => undefined);
    if (isBlackholed(question.name)) return;
    try {
      const stored = await redis.get(testDnsKey(question.name));
      if (stored === null) {
        response.header.rcode = RCODE.NXDOMAIN;
      } else {
        const wanted = QUERY_TYPES[question.type];
        const records = (JSON.parse(stored) as TestDnsRecord[]).filter((record) => record.type === wanted);
        response.answers.push(...(records.map((record) => toAnswer(question.name, record)) as never[]));
      }
    } catch {
      response.header.rcode = RCODE.SERVFAIL;
    }
    send(response);
  };
}

async function listenUdp(handle: ReturnType<typeof answerer>): Promise<Socket & { address(): { port: number } }> {
  const udp = new UDPServer((request: DnsRequest, send: Send) => void handle(request, send));
  await udp.listen(0, '127.0.0.1');
  return udp as never;
}

/** Resolvers retry over TCP on the same port when a UDP answer is truncated, so both are served. */
async function listenTcp(port: number, handle: ReturnType<typeof answerer>): Promise<TcpServer | undefined> {
  const tcp = new TCPServer((request: DnsRequest, send: Send) => void handle(request, send)) as unknown as TcpServer;
  tcp.listen(port, '127.0.0.1');
  try {
    await Promise.race([once(tcp, 'listening'), once(tcp, 'error').then(([error]) => Promise.reject(error))]);
    return tcp;
  } catch {
    tcp.close();
    return undefined;
  }
}

export async function startTestDnsServer(): Promise<TestDnsServer> {
  const redis = new Redis(testDnsRedisUrl(), { maxRetriesPerRequest: 2 });
  const handle = answerer(redis);
  for (let attempt = 0; attempt < 10; attempt++) {
    const udp = await listenUdp(handle);
    const { port } = udp.address();
    const tcp = await listenTcp(port, handle);
    if (!tcp) {
      udp.close();
      continue;
    }
    return {
      servers: `127.0.0.1:${port}`,
      close: async () => {
        await Promise.all([new Promise<void>((resolve) => udp.close(() => resolve())), new Promise<void>((resolve) => tcp.close(() => resolve()))]);
        await redis.quit();
      },
    };
  }
  await redis.quit();
  throw new Error('test DNS server: no port free for both UDP and TCP');
}
