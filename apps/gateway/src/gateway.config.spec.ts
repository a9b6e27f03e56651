import { ConfigError, loadConfig } from '@platform/config';
import { GatewayConfig } from './gateway.config';

describe('GatewayConfig TRUSTED_PROXIES', () => {
  it('trusts no proxy by default', () => {
    expect(loadConfig(GatewayConfig, {}).trustedProxies).toEqual([]);
  });

  it('reads a comma list of CIDRs and addresses, v4 and v6', () => {
    const config = loadConfig(GatewayConfig, { TRUSTED_PROXIES: ' 10.0.0.0/8, 192.168.1.10 ,fd00::/8,' });
    expect(config.trustedProxies).toEqual(['10.0.0.0/8', '192.168.1.10', 'fd00::/8']);
  });

  it.each(['proxy.internal', '10.0.0.0/33', '10.0.0.0/8;172.16.0.0/12', '*'])('stops the process naming TRUSTED_PROXIES for %j', (value) => {
    expect(() => loadConfig(GatewayConfig, { TRUSTED_PROXIES: value })).toThrow(ConfigError);
    expect(() => loadConfig(GatewayConfig, { TRUSTED_PROXIES: value })).toThrow(/^Invalid configuration: TRUSTED_PROXIES /);
  });
});
