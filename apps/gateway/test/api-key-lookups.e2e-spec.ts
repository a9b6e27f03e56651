import { IdentityStore } from '@identity';
import { Database } from '@platform/persistence';
import { createTestOrg, testDatabaseUrl } from '@platform/testing';
import type { NatsConnection } from 'nats';
import { ApiKeyAuthenticator } from '../src/auth/api-key.authenticator';
import { GatewayConfig } from '../src/gateway.config';

const TTL_MS = 300;

describe('API key lookups', () => {
  const db = new Database({ url: testDatabaseUrl(), poolSize: 8, organizationShare: 1, applicationName: `api-key-lookups-${process.pid}` });
  const identity = new IdentityStore(db);
  const lookups = jest.spyOn(identity, 'authenticate');
  // The NATS connection only carries evictions (onModuleInit), which this spec does not start.
  const authenticator = new ApiKeyAuthenticator(identity, Object.assign(new GatewayConfig(), { API_KEY_CACHE_TTL_MS: TTL_MS }), undefined as unknown as NatsConnection);

  afterAll(() => db.close());

  it('looks a key up once for the requests that arrive together, and once again after its entry expires', async () => {
    const org = await createTestOrg();
    const together = () => Promise.all(Array.from({ length: 40 }, () => authenticator.authenticate(org.key)));
    const first = await together();
    expect(first.map((found) => found?.org.id)).toEqual(Array(40).fill(org.orgId));
    expect(lookups).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 100));
    const again = await together();
    expect(again.map((found) => found?.keyId)).toEqual(Array(40).fill(org.keyId));
    expect(lookups).toHaveBeenCalledTimes(2);
  });

  it('answers nothing for a key nobody issued, looked up once for the requests that arrive together', async () => {
    lookups.mockClear();
    const unissued = `sk_${'B'.repeat(43)}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => authenticator.authenticate(unissued)));
    expect(answers).toEqual(Array(10).fill(undefined));
    expect(lookups).toHaveBeenCalledTimes(1);
  });
});
