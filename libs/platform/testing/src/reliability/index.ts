export * from './private-postgres';
export * from './private-redis';
export * from './isolated-stack';
export * from './steady-row-writer';
export * from './fault-windows';
export * from './delivery-audit';
