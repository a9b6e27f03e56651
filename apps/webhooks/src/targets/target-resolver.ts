import { isIP } from 'node:net';
import { blockedAddressReason } from './address-policy';
import { HostLookup, ResolvedAddress, systemLookup } from './host-lookup';

export type { HostLookup, ResolvedAddress } from './host-lookup';

/**
 * A target the service will not call. The message is safe to show to the webhook's owner: it never names
 * what a host name resolved to, and a name that resolves to a blocked address reads exactly like one that
 * does not resolve, so webhook creation cannot be used to map internal host names.
 */
export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Resolves a webhook URL's host once and judges every address it has; the caller connects to the
 * answered address, so a second lookup cannot swap in another one.
 */
export class TargetResolver {
  constructor(
    private readonly allowPrivate: boolean,
    private readonly lookup: HostLookup = systemLookup,
  ) {}

  async resolve(url: URL): Promise<ResolvedAddress> {
    const host = hostOf(url);
    const literal = isIP(host);
    const addresses = literal ? [{ address: host, family: literal as 4 | 6 }] : await this.lookupAll(host);
    if (!this.allowPrivate) {
      for (const { address } of addresses) {
        const reason = blockedAddressReason(address);
        if (reason) throw literal ? new TargetRefusedError(`${host} is a ${reason}, which webhooks may not target`) : notAllowed(host);
      }
    }
    // The address to connect to, as checked; how long its record may be kept is the lookup's business.
    const [{ address, family }] = addresses;
    return { address, family };
  }

  private async lookupAll(host: string): Promise<ResolvedAddress[]> {
    const addresses = await this.lookup(host).catch(() => []);
    if (addresses.length === 0) throw notAllowed(host);
    return addresses;
  }
}

function notAllowed(host: string): TargetRefusedError {
  return new TargetRefusedError(`${host} is not an allowed target: webhooks reach only host names that resolve to public addresses`);
}
