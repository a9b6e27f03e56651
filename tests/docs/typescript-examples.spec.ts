import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';
import { allBlocks, REPO } from './doc-blocks';

/**
 * Every TypeScript block of README.md, docs/ and the apps' and libraries' READMEs compiles under
 * --strict, each as a module of its own that imports the SDK by its published name: a reader who pastes
 * one gets code that builds.
 */
describe('TypeScript examples in the documents', () => {
  const blocks = allBlocks(['ts', 'typescript']);
  const folder = mkdtempSync(join(tmpdir(), 'doc-examples-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('finds the examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
  });

  it('compiles every one under --strict', () => {
    const files = blocks.map((block, index) => {
      const path = join(folder, `${block.file.replace(/\W+/g, '_')}_${block.line}_${index}.ts`);
      // A block is a module of its own, so top-level await and its own names work as in the reader's file.
      writeFileSync(path, `${block.code}\nexport {};\n`);
      return { path, block };
    });
    const program = ts.createProgram(
      files.map((file) => file.path),
      {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        types: ['node'],
        typeRoots: [join(REPO, 'node_modules/@types')],
        baseUrl: REPO,
        paths: { '@org-data-platform/sdk': ['libs/sdk/src/index.ts'] },
        skipLibCheck: true,
      },
    );
    const where = new Map(files.map(({ path, block }) => [path, `${block.file}:${block.line}`]));
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const file = diagnostic.file?.fileName ?? '';
      const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
      return `${where.get(file) ?? file} (+${line}): ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  }, 120_000);
});
