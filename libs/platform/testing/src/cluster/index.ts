export * from './cluster-network';
export * from './cluster-stack';
export * from './gateway-balancer';
export * from './host-loss-scenario';
