import { operation, PlanGate } from '../operation';
import { PageQuery } from '../pagination';
import { CreateDomainBody } from './domain.dto';
import { DomainVerification, DomainView, EmailAddressView } from './domain.types';
import { CreateEmailAddressBody } from './email-address.dto';

/** An organization may use domains with a plan of this many USD a month or more, or with the add-on. */
export const DOMAINS_MIN_PLAN = 250;
export const DOMAINS_ADDON = 'domains';

export function hasDomainsPlan(org: { plan: number; addons: readonly string[] }): boolean {
  return org.plan >= DOMAINS_MIN_PLAN || org.addons.includes(DOMAINS_ADDON);
}

/** Domains are a paid feature: every operation of the context asks for the plan first. */
export const DOMAINS_PLAN: PlanGate = {
  allows: hasDomainsPlan,
  message: `Custom domains need a plan of ${DOMAINS_MIN_PLAN} USD per month or more, or the ${DOMAINS_ADDON} add-on`,
};

const domains = { tag: 'domains', gate: DOMAINS_PLAN } as const;

/** The domains service's operations. */
export const DomainsOperations = {
  list: operation({
    ...domains,
    operationId: 'listDomains',
    summary: 'List domains',
    method: 'GET',
    path: 'domains',
    scope: 'domains:read',
    subject: 'domains.list',
    query: PageQuery,
    answers: DomainView,
  }),
  create: operation({
    ...domains,
    operationId: 'createDomain',
    summary: 'Add a domain; the answer lists the DNS records to configure',
    method: 'POST',
    path: 'domains',
    scope: 'domains:write',
    subject: 'domains.create',
    status: 201,
    body: CreateDomainBody,
    answers: DomainView,
  }),
  get: operation({
    ...domains,
    operationId: 'getDomain',
    summary: 'A domain with the DNS records to configure',
    method: 'GET',
    path: 'domains/:domain_id',
    scope: 'domains:read',
    subject: 'domains.get',
    answers: DomainView,
  }),
  verify: operation({
    ...domains,
    operationId: 'verifyDomain',
    summary: 'Check the DNS records live and move the status accordingly',
    method: 'GET',
    path: 'domains/:domain_id/verify',
    scope: 'domains:read',
    subject: 'domains.verify',
    answers: DomainVerification,
  }),
  remove: operation({
    ...domains,
    operationId: 'deleteDomain',
    summary: 'Disconnect a domain and remove its email addresses',
    method: 'DELETE',
    path: 'domains/:domain_id',
    scope: 'domains:write',
    subject: 'domains.remove',
  }),
  listEmails: operation({
    ...domains,
    operationId: 'listEmailAddresses',
    summary: "List the domain's email addresses",
    method: 'GET',
    path: 'domains/:domain_id/emails',
    scope: 'domains:read',
    subject: 'domains.emails.list',
    query: PageQuery,
    answers: EmailAddressView,
  }),
  createEmail: operation({
    ...domains,
    operationId: 'createEmailAddress',
    summary: 'Create an email address on an active domain',
    method: 'POST',
    path: 'domains/:domain_id/emails',
    scope: 'domains:write',
    subject: 'domains.emails.create',
    status: 201,
    body: CreateEmailAddressBody,
    answers: EmailAddressView,
  }),
};
