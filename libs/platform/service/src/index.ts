export * from './readiness';
export * from './metrics';
export * from './health.controller';
export * from './health.module';
export * from './shutdown';
export * from './run-main';
export * from './bootstrap-service';
export * from './service-core.module';
