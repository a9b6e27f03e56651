export * from './app-manifests';
export * from './managed-process';
export * from './supervisor';
export * from './free-ports';
