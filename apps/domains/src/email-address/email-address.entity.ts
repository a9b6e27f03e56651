/** An address on a connected domain, as stored. */
export interface EmailAddressEntity {
  id: string;
  organizationId: string;
  domainId: string;
  localPart: string;
  address: string;
  isPrimary: boolean;
  createdAt: Date;
}
