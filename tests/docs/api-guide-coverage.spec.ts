import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './doc-blocks';

interface Operation {
  summary?: string;
  'x-required-scope'?: string;
}

/**
 * The API guide's "Every endpoint" table lists each operation of openapi.json once, with its scope, and
 * nothing that is not one: a new endpoint cannot ship without its line in the guide.
 */
describe('the API guide covers every endpoint', () => {
  const document = JSON.parse(readFileSync(join(REPO, 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, Operation>> };
  const guide = readFileSync(join(REPO, 'docs/api-guide.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## Every endpoint'));
  const listed = [...section.matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE) ([^`]+)` \| `([^`]+)` \|/gm)].map(([, method, path, scope]) => `${method} ${path} ${scope}`);
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation['x-required-scope'] ?? 'none'}`),
  );

  it('has the section', () => {
    expect(section.length).toBeGreaterThan(100);
  });

  it('lists each operation of openapi.json with its scope, once, and no other', () => {
    expect([...listed].sort()).toEqual([...operations].sort());
  });
});
