import { AddressInfo } from 'node:net';
import { Packet, UDPServer } from 'dns2';

/** A host's records in the test zone; `ttl` in seconds (0 unless given: not to be kept). */
export interface ZoneEntry {
  a?: string[];
  aaaa?: string[];
  ttl?: number;
}

/** A DNS server on loopback answering A and AAAA queries from a zone the test gives it (and may change). */
export class ARecordDns {
  private constructor(
    private readonly server: UDPServer,
    private readonly zone: Record<string, ZoneEntry>,
    /** Queries answered, by name (A and AAAA each count). */
    readonly queries: Map<string, number>,
  ) {}

  static async start(initial: Record<string, ZoneEntry>): Promise<ARecordDns> {
    const zone = { ...initial };
    const queries = new Map<string, number>();
    const server = new UDPServer((request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question.name.toLowerCase();
      queries.set(name, (queries.get(name) ?? 0) + 1);
      const entry = zone[name];
      const answers = question.type === Packet.TYPE.A ? entry?.a : question.type === Packet.TYPE.AAAA ? entry?.aaaa : undefined;
      for (const address of answers ?? []) {
        response.answers.push(Packet.createResourceFromQuestion(question, { ttl: entry?.ttl ?? 0, address }));
      }
      send(response);
    });
    await server.listen(0, '127.0.0.1');
    return new ARecordDns(server, zone, queries);
  }

  /** Changes (or adds) a host's records. */
  set(name: string, entry: ZoneEntry): void {
    this.zone[name] = entry;
  }

  /** `127.0.0.1:port`, for WEBHOOK_DNS_SERVERS. */
  get servers(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): void {
    this.server.close();
  }
}
