export { startTestDnsServer, TestDnsServer } from './test-dns-server';
export { setTestDnsRecords, clearTestDnsRecords, testDnsQueryCount, TestDnsRecord, BLACKHOLE_SUFFIX } from './test-dns-records';
