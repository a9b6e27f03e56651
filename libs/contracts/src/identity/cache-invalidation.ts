/** Core NATS subject on which the admin tool tells gateways to forget cached keys and organizations. */
export const IDENTITY_CHANGED_SUBJECT = 'identity.changed';

export type IdentityChange = { kind: 'key'; keyId: string } | { kind: 'org'; orgId: string };
