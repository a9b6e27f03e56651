import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

/**
 * MinIO's well-known root credentials, which the development setups (docker compose, a local MinIO)
 * run with. Anyone can read them here, so production refuses to start with them or without a secret.
 */
export const DEVELOPMENT_STORAGE_CREDENTIALS = { accessKeyId: 'minioadmin', secretAccessKey: 'minioadmin' } as const;

/** A storage secret: required in production and never the development one there. Never echoes the value. */
export function IsStorageSecret(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isStorageSecret',
      target: target.constructor,
      propertyName,
      options: { message: 'must be set, and not to the development credentials, when NODE_ENV=production', ...options },
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          if (typeof value !== 'string') return false;
          if ((args.object as { NODE_ENV?: string }).NODE_ENV !== 'production') return true;
          return value !== '' && value !== DEVELOPMENT_STORAGE_CREDENTIALS.secretAccessKey;
        },
      },
    });
}
