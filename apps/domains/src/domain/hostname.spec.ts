import { normalizeHostname } from './hostname';

describe('normalizeHostname', () => {
  it.each([
    ['Example.COM', 'example.com'],
    ['mail.sub-domain.example.co.uk', 'mail.sub-domain.example.co.uk'],
    ['bücher.de', 'xn--bcher-kva.de'],
  ])('accepts %s as %s', (input, hostname) => {
    expect(normalizeHostname(input)).toEqual({ ok: true, hostname });
  });

  it.each([
    ['example.com.', 'must not end with a dot'],
    ['192.168.1.1', 'must be a domain name, not an IP address'],
    ['[::1]', 'must be a domain name, not an IP address'],
    ['localhost', 'must have at least two labels, like example.com'],
    ['-bad.example.com', 'labels must be 1..63 letters, digits or inner hyphens'],
    ['under_score.example.com', 'labels must be 1..63 letters, digits or inner hyphens'],
    ['a..b.com', 'labels must be 1..63 letters, digits or inner hyphens'],
    ['exa mple.com', 'must be a valid domain name'],
    [`${'a'.repeat(64)}.com`, 'labels must be 1..63 letters, digits or inner hyphens'],
    ['', 'must be a valid domain name'],
  ])('refuses %j: %s', (input, reason) => {
    expect(normalizeHostname(input)).toEqual({ ok: false, reason });
  });

  it('refuses names over the length limit', () => {
    const long = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(10)}.com`;
    expect(normalizeHostname(long)).toEqual({ ok: false, reason: 'must be at most 253 characters' });
  });
});
