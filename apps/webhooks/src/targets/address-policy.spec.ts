import { blockedAddressReason } from './address-policy';

describe('blockedAddressReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['169.254.0.1', 'linkLocal'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fdff:ffff::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['[::1]', 'loopback'],
  ])('refuses %s (%s)', (address, range) => {
    expect(blockedAddressReason(address)).toBe(`${range} address`);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:100.64.1.1', 'carrierGradeNat'],
    ['::ffff:7f00:1', 'loopback'],
  ])('judges the IPv4-mapped %s as the v4 address it carries (%s)', (address, range) => {
    expect(blockedAddressReason(address)).toBe(`${range} address`);
  });

  it.each([
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['[::127.0.0.1]', 'loopback'],
    ['::10.0.0.1', 'private'],
    ['::169.254.169.254', 'linkLocal'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:a00:1::1', 'private'],
    ['2002:c0a8:101:1::', 'private'],
    // Teredo: server 8.8.8.8, client 127.0.0.1 (its bits inverted: 80ff:fffe).
    ['2001:0:808:808:0:0:80ff:fffe', 'loopback'],
    // Teredo: server 10.0.0.1, client 8.8.8.8.
    ['2001:0:a00:1:0:0:f7f7:f7f7', 'private'],
    ['2001::1', 'unspecified'],
  ])('judges %s as the v4 address it embeds (%s)', (address, range) => {
    expect(blockedAddressReason(address)).toBe(`${range} address`);
  });

  it.each(['::8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2001:0:808:808:0:0:f7f7:f7f7'])('allows %s, which embeds a public v4 address', (address) => {
    expect(blockedAddressReason(address)).toBeUndefined();
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '100.128.0.1', '192.169.0.1', '2606:4700:4700::1111', '2a00:1450::1', '::ffff:8.8.8.8'])(
    'allows the public unicast address %s',
    (address) => {
      expect(blockedAddressReason(address)).toBeUndefined();
    },
  );

  it('refuses what is not an address', () => {
    expect(blockedAddressReason('example.com')).toBe('not an IP address');
    expect(blockedAddressReason('')).toBe('not an IP address');
  });
});
