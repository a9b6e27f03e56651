import ipaddr from 'ipaddr.js';

/**
 * Why an address may not receive webhooks, or undefined when it may. Only globally routable unicast
 * passes: loopback, private, link-local, CGNAT, multicast, broadcast, unspecified, reserved and
 * documentation ranges and unique-local v6 are refused. A v6 address that carries a v4 one is judged as
 * that v4 address, since a relay or translator on the way delivers it there.
 */
export function blockedAddressReason(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return 'not an IP address';
  }
  const judged = parsed.kind() === 'ipv6' ? embeddedIPv4(parsed as ipaddr.IPv6) : [parsed];
  for (const candidate of judged) {
    const range = candidate.range();
    if (range !== 'unicast') return `${range} address`;
  }
  return undefined;
}

/** The v4 addresses a v6 one carries (both ends of a Teredo address), or the v6 address itself. */
function embeddedIPv4(address: ipaddr.IPv6): Array<ipaddr.IPv4 | ipaddr.IPv6> {
  const words = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (address.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
    case 'rfc6052': // NAT64 64:ff9b::a.b.c.d
      return [v4(words[6], words[7])];
    case '6to4': // 2002:AABB:CCDD::/48
      return [v4(words[1], words[2])];
    case 'teredo': // 2001:0:server:flags:port:client, the client's bits inverted
      return [v4(words[2], words[3]), v4(~words[6] & 0xffff, ~words[7] & 0xffff)];
    default:
      // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks); :: and ::1 keep their own names.
      if (words.slice(0, 6).every((word) => word === 0) && (words[6] !== 0 || words[7] > 1)) return [v4(words[6], words[7])];
      return [address];
  }
}
