export * from './entities/organization.entity';
export * from './entities/api-key.entity';
export * from './entities/member.entity';
export * from './api-key-secret';
export * from './identity-schema';
export * from './identity.store';
