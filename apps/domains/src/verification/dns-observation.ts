/** What one lookup told us. `missing` is a definite answer (no such name or no such record). */
export type Lookup =
  | { outcome: 'found'; values: string[] }
  | { outcome: 'missing' }
  | { outcome: 'timeout' }
  | { outcome: 'error'; code: string };

/** The answers to all the lookups of one verification: MX hosts, TXT strings, each DKIM CNAME, and the DMARC TXT strings. */
export interface DnsObservation {
  mx: Lookup;
  txt: Lookup;
  dkim: [Lookup, Lookup];
  dmarc: Lookup;
}
