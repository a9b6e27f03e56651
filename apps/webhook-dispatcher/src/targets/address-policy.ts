import ipaddr from 'ipaddr.js';

/**
 * Why an address may not receive webhooks, or undefined when it may. Only globally routable unicast
 * passes: loopback, private, link-local, CGNAT, multicast, broadcast, unspecified, reserved and
 * documentation ranges, unique-local v6, and v6 forms that embed a v4 address (mapped, 6to4, NAT64,
 * Teredo) are refused. IPv4-mapped and -compatible v6 addresses are judged as the v4 address they carry.
 */
export function blockedAddressReason(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return 'not an IP address';
  }
  const range = parsed.range();
  return range === 'unicast' ? undefined : `${range} address`;
}
