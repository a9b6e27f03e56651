import type { DomainStatus } from '@contracts';

/** A connected domain as stored, with its latest check's results and when the next is due. */
export interface DomainEntity {
  id: string;
  organizationId: string;
  domain: string;
  status: DomainStatus;
  type: string;
  dkimSelector1: string;
  dkimSelector2: string;
  dnsConfigured: boolean;
  mxVerified: boolean;
  spfVerified: boolean;
  dkimVerified: boolean;
  verifiedAt: Date | null;
  checkedAt: Date | null;
  /** What the latest check found wrong or advises. */
  issues: string[];
  /** When the background re-check is due; null when it is not to run again. */
  nextCheckAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
