export { startTestDnsServer, TestDnsServer } from './test-dns-server';
export { setTestDnsRecords, clearTestDnsRecords, TestDnsRecord, BLACKHOLE_SUFFIX } from './test-dns-records';
