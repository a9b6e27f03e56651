import { AddressInfo } from 'node:net';
import { Packet, UDPServer } from 'dns2';

/** A DNS server on loopback answering A and AAAA queries from a zone the test gives it. */
export class ARecordDns {
  private constructor(private readonly server: UDPServer) {}

  static async start(zone: Record<string, { a?: string[]; aaaa?: string[] }>): Promise<ARecordDns> {
    const server = new UDPServer((request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const entry = zone[question.name.toLowerCase()];
      const answers = question.type === Packet.TYPE.A ? entry?.a : question.type === Packet.TYPE.AAAA ? entry?.aaaa : undefined;
      for (const address of answers ?? []) {
        response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 0, address }));
      }
      send(response);
    });
    await server.listen(0, '127.0.0.1');
    return new ARecordDns(server);
  }

  /** `127.0.0.1:port`, for WEBHOOK_DNS_SERVERS. */
  get servers(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): void {
    this.server.close();
  }
}
