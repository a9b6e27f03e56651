import { ProductionRule } from '@platform/config';
import { ValidationOptions } from 'class-validator';

/**
 * MinIO's well-known root credentials, which the development setups (docker compose, a local MinIO)
 * run with. Anyone can read them here, so production refuses to start with them or without a secret.
 */
export const DEVELOPMENT_STORAGE_CREDENTIALS = { accessKeyId: 'minioadmin', secretAccessKey: 'minioadmin' } as const;

/** A storage secret: required in production and never the development one there. Never echoes the value. */
export const IsStorageSecret = (options?: ValidationOptions) =>
  ProductionRule(
    'isStorageSecret',
    'must be set, and not to the development credentials, when NODE_ENV=production',
    (value, production) => typeof value === 'string' && (!production || (value !== '' && value !== DEVELOPMENT_STORAGE_CREDENTIALS.secretAccessKey)),
    options,
  );
