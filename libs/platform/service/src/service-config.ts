/** The process's validated config, for platform providers that need it. */
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
