import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Where the web console is served: a single page that calls the API of the same origin through the SDK. */
export const CONSOLE_PATH = '/console';

/**
 * The console's bundle, built by its Nx build target (`npx nx run console:build`) into dist/apps/console. The gateway runs from
 * dist/apps/gateway/src/http (or from the sources under ts-jest): both lead to the same repository root.
 */
export const CONSOLE_DIR = join(resolve(__dirname, '../../../..').replace(/\/dist$/, ''), 'dist/apps/console');

/** Public, without an API key: the page and its assets hold no data; signing in happens in the page. */
export function isConsolePath(url: string): boolean {
  const path = url.split('?')[0];
  return path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`);
}

/**
 * The page holds an API key, so it runs only its own scripts and styles, in no frame; it talks to this
 * origin and to the object storage that presigned upload and download URLs name (any http(s) host).
 */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: http: https:",
  "connect-src 'self' http: https:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

function setConsoleHeaders(reply: FastifyReply, path: string): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'no-referrer');
  if (path.endsWith('.html')) {
    reply.header('Content-Security-Policy', PAGE_POLICY);
    reply.header('Cache-Control', 'no-cache');
  } else {
    // Vite names every asset by a hash of its content: a changed file is a new name.
    reply.header('Cache-Control', 'public, max-age=31536000, immutable');
  }
}

/** Serves the built console at /console (the page) and /console/assets/* (hashed scripts and styles). */
export async function serveConsole(fastify: FastifyInstance, dir = CONSOLE_DIR): Promise<void> {
  if (!existsSync(join(dir, 'index.html'))) return;
  await fastify.register(fastifyStatic, {
    root: dir,
    prefix: `${CONSOLE_PATH}/`,
    cacheControl: false,
    redirect: false,
    setHeaders: setConsoleHeaders,
  });
  // The page also answers without the trailing slash; its asset URLs are absolute, so both work.
  fastify.get(CONSOLE_PATH, (_request, reply) => reply.sendFile('index.html'));
}
