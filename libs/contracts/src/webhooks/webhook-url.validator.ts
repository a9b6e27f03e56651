import { registerDecorator, ValidationOptions } from 'class-validator';

export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** An absolute http(s) URL with a host; where it points is checked later, by the service. */
export function isWebhookUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > WEBHOOK_URL_MAX_LENGTH) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export function IsWebhookUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, property) =>
    registerDecorator({
      name: 'isWebhookUrl',
      target: target.constructor,
      propertyName: String(property),
      options: { message: `${String(property)} must be an absolute http or https URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters`, ...options },
      validator: { validate: isWebhookUrl },
    });
}
