import { AddressInfo } from 'node:net';
import { Packet, UDPServer } from 'dns2';
import { serverLookup } from './host-lookup';
import { TargetRefusedError, TargetResolver } from './target-resolver';

/** A DNS server on loopback that answers A and AAAA from a table this test controls. */
const zone: Record<string, { a?: string[]; aaaa?: string[] }> = {
  'public.example.test': { a: ['93.184.216.34'] },
  'loopback.example.test': { a: ['127.0.0.1'] },
  'metadata.example.test': { a: ['169.254.169.254'] },
  'private-v6.example.test': { aaaa: ['fd00::5'] },
  'mixed.example.test': { a: ['93.184.216.34', '10.0.0.8'] },
  'mapped.example.test': { aaaa: ['0:0:0:0:0:ffff:c0a8:114'] },
  'nat64.example.test': { aaaa: ['64:ff9b::a9fe:a9fe'] },
};

let server: UDPServer;
let lookupVia: ReturnType<typeof serverLookup>;

beforeAll(async () => {
  server = new UDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const entry = zone[question.name.toLowerCase()];
    if (entry && question.type === Packet.TYPE.A) {
      for (const address of entry.a ?? []) response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 0, address }));
    }
    if (entry && question.type === Packet.TYPE.AAAA) {
      for (const address of entry.aaaa ?? []) response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 0, address }));
    }
    send(response);
  });
  await server.listen(0, '127.0.0.1');
  lookupVia = serverLookup([`127.0.0.1:${(server.address() as AddressInfo).port}`], 2_000);
});

afterAll(() => server.close());

const strict = () => new TargetResolver(false, lookupVia);

describe('TargetResolver', () => {
  it('answers the checked address of a public host name', async () => {
    await expect(strict().resolve(new URL('https://public.example.test/hook'))).resolves.toEqual({ address: '93.184.216.34', family: 4 });
  });

  it.each([
    ['loopback.example.test', '127.0.0.1'],
    ['metadata.example.test', '169.254.169.254'],
    ['private-v6.example.test', 'fd00::5'],
    ['mixed.example.test', '10.0.0.8'],
    ['mapped.example.test', 'c0a8:114'],
    ['nat64.example.test', 'a9fe:a9fe'],
  ])('refuses %s, which resolves to a blocked address, without naming the address', async (host, address) => {
    const refusal = await strict()
      .resolve(new URL(`http://${host}/`))
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TargetRefusedError);
    expect((refusal as Error).message).toBe(`${host} is not an allowed target: webhooks reach only host names that resolve to public addresses`);
    expect((refusal as Error).message).not.toContain(address);
  });

  it.each([
    'http://127.0.0.1:8080/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/',
    'http://[::1]:3000/',
    'http://[fc00::1]/',
    'http://[fd12:3456::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::127.0.0.1]/',
    'http://[::10.0.0.1]:8080/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[2002:7f00:1::1]/',
    'http://[2001:0:808:808::80ff:fffe]/',
    'http://0.0.0.0/',
    'http://2130706433/',
    'http://0x7f.1/',
  ])('refuses the literal target %s without a lookup', async (url) => {
    const resolver = new TargetResolver(false, () => Promise.reject(new Error('no lookup expected')));
    await expect(resolver.resolve(new URL(url))).rejects.toBeInstanceOf(TargetRefusedError);
  });

  it('refuses a name that does not resolve with the same words as a blocked one', async () => {
    await expect(strict().resolve(new URL('http://missing.example.test/'))).rejects.toThrow(
      'missing.example.test is not an allowed target: webhooks reach only host names that resolve to public addresses',
    );
  });

  it('allows private targets when told to, still connecting to the resolved address', async () => {
    const permissive = new TargetResolver(true, lookupVia);
    await expect(permissive.resolve(new URL('http://loopback.example.test:9/'))).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    await expect(permissive.resolve(new URL('http://[::1]:9/'))).resolves.toEqual({ address: '::1', family: 6 });
  });
});
