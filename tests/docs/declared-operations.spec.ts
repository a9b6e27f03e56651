import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { blocksOf, REPO, REPOSITORY_DOCUMENTS } from './doc-blocks';

const blocks = blocksOf('docs/declared-operations.md')
  .filter((block) => block.lang === 'ts')
  .map((block) => block.code);

/** Type-checks the page's two blocks as the files they stand for: the contract, and the handler importing it as `./contract`. */
function diagnostics(contract: string, handler: string): string[] {
  // Inside the repository, so that packages and the tsconfig paths resolve as they do for the code itself.
  mkdirSync(join(REPO, 'dist'), { recursive: true });
  const dir = mkdtempSync(join(REPO, 'dist', 'docs-example-'));
  try {
    writeFileSync(join(dir, 'contract.ts'), contract);
    writeFileSync(join(dir, 'handler.ts'), handler);
    const config = ts.parseJsonConfigFileContent(ts.readConfigFile(join(REPO, 'tsconfig.base.json'), ts.sys.readFile).config, ts.sys, REPO);
    const program = ts.createProgram([join(dir, 'contract.ts'), join(dir, 'handler.ts')], { ...config.options, noEmit: true });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('docs/declared-operations.md', () => {
  it('is left out of the SDK readers\' examples, and has the walk-through in two blocks: the contract and the handler', () => {
    expect(REPOSITORY_DOCUMENTS).toContain('docs/declared-operations.md');
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toContain('operation({');
    expect(blocks[1]).toContain('@Handles(archiveDomain)');
  });

  it('compiles as written, in the repository', () => {
    expect(diagnostics(blocks[0], blocks[1])).toEqual([]);
  }, 180_000);

  it('does not compile when the handler reads an input the declaration does not have', () => {
    const wrong = blocks[1].replace('{ domainId }: OperationInput', '{ tableId: domainId }: OperationInput');
    expect(wrong).not.toBe(blocks[1]);
    expect(diagnostics(blocks[0], wrong).join('\n')).toMatch(/tableId/);
  }, 180_000);
});
