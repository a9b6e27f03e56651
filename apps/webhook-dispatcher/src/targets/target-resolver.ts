import { isIP } from 'node:net';
import { blockedAddressReason } from './address-policy';
import { HostLookup, ResolvedAddress, systemLookup } from './host-lookup';

export type { HostLookup, ResolvedAddress } from './host-lookup';

/** A target the service will not call; the message is safe to show to the webhook's owner. */
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
        if (reason) throw new TargetRefusedError(literal ? `${host} is a ${reason}` : `${host} resolves to a ${reason} (${address})`);
      }
    }
    return addresses[0];
  }

  private async lookupAll(host: string): Promise<ResolvedAddress[]> {
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.lookup(host);
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new TargetRefusedError(`${host} could not be resolved${code ? ` (${code})` : ''}`);
    }
    if (addresses.length === 0) throw new TargetRefusedError(`${host} could not be resolved`);
    return addresses;
  }
}
