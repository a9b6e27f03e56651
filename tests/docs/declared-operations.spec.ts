import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as ts from 'typescript';

const root = resolve(__dirname, '..', '..');
const page = readFileSync(join(root, 'docs/declared-operations.md'), 'utf8');
const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);

/** Type-checks the page's two blocks as the files they stand for: the contract, and the handler importing it as `./contract`. */
function diagnostics(contract: string, handler: string): string[] {
  // Inside the repository, so that packages and the tsconfig paths resolve as they do for the code itself.
  mkdirSync(join(root, 'dist'), { recursive: true });
  const dir = mkdtempSync(join(root, 'dist', 'docs-example-'));
  try {
    writeFileSync(join(dir, 'contract.ts'), contract);
    writeFileSync(join(dir, 'handler.ts'), handler);
    const config = ts.parseJsonConfigFileContent(ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile).config, ts.sys, root);
    const program = ts.createProgram([join(dir, 'contract.ts'), join(dir, 'handler.ts')], { ...config.options, noEmit: true });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('docs/declared-operations.md', () => {
  it('has the walk-through in two blocks: the contract and the handler', () => {
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toContain('operation({');
    expect(blocks[1]).toContain('@Handles(archiveDomain)');
  });

  it('compiles as written', () => {
    expect(diagnostics(blocks[0], blocks[1])).toEqual([]);
  }, 180_000);

  it('does not compile when the handler reads an input the declaration does not have', () => {
    const wrong = blocks[1].replace('{ domainId }: OperationInput', '{ tableId: domainId }: OperationInput');
    expect(wrong).not.toBe(blocks[1]);
    expect(diagnostics(blocks[0], wrong).join('\n')).toMatch(/tableId/);
  }, 180_000);
});
