export * from './process-catalog';
export * from './managed-process';
export * from './supervisor';
export * from './free-ports';
