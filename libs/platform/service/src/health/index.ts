export * from './dependency.indicator';
export * from './health-checks';
export * from './health.module';
