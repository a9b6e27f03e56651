/** NATS request-reply subjects of the domains context. */
export const DomainsPatterns = {
  list: 'domains.list',
  get: 'domains.get',
  create: 'domains.create',
  verify: 'domains.verify',
  remove: 'domains.remove',
  listEmails: 'domains.emails.list',
  createEmail: 'domains.emails.create',
} as const;

/** An organization may use domains with a plan of this many USD a month or more, or with the add-on. */
export const DOMAINS_MIN_PLAN = 250;
export const DOMAINS_ADDON = 'domains';

export function hasDomainsPlan(org: { plan: number; addons: readonly string[] }): boolean {
  return org.plan >= DOMAINS_MIN_PLAN || org.addons.includes(DOMAINS_ADDON);
}
