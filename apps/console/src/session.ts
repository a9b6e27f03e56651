import { createApiClient, type DataClient } from '@org-data-platform/sdk';

/** Session storage only: the key leaves with the tab, and no other page or later visit reads it. */
const STORAGE_KEY = 'console.api-key';

export const storedKey = (): string | null => sessionStorage.getItem(STORAGE_KEY);
export const storeKey = (key: string): void => sessionStorage.setItem(STORAGE_KEY, key);
export const forgetKey = (): void => sessionStorage.removeItem(STORAGE_KEY);

/** The SDK's client for the API of the origin that served the console: every call the console makes goes through it. */
export function apiFor(apiKey: string): DataClient {
  return createApiClient({ baseUrl: new URL('/v1', window.location.origin).href, apiKey, throwOnError: true });
}
