import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

export type HostnameCheck = { ok: true; hostname: string } | { ok: false; reason: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const MAX_LENGTH = 253;

/**
 * A hostname as DNS stores it: lowercase, internationalized names in their punycode form, at least two
 * labels, no IP address and no trailing dot (we always work with fully qualified names).
 */
export function normalizeHostname(input: string, maxLength = MAX_LENGTH): HostnameCheck {
  if (input.endsWith('.')) return { ok: false, reason: 'must not end with a dot' };
  if (isIP(input.replace(/^\[|\]$/g, ''))) return { ok: false, reason: 'must be a domain name, not an IP address' };
  const hostname = domainToASCII(input);
  if (!hostname) return { ok: false, reason: 'must be a valid domain name' };
  if (hostname.length > maxLength) return { ok: false, reason: `must be at most ${maxLength} characters` };
  const labels = hostname.split('.');
  if (labels.length < 2) return { ok: false, reason: 'must have at least two labels, like example.com' };
  if (!labels.every((label) => LABEL.test(label))) {
    return { ok: false, reason: 'labels must be 1..63 letters, digits or inner hyphens' };
  }
  if (/^\d+$/.test(labels[labels.length - 1])) return { ok: false, reason: 'must be a domain name, not an IP address' };
  return { ok: true, hostname };
}

/** Compares names as DNS does: case-insensitive, with or without the root dot. */
export function sameHost(a: string, b: string): boolean {
  return a.replace(/\.$/, '').toLowerCase() === b.replace(/\.$/, '').toLowerCase();
}
