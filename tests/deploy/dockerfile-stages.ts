import { readFileSync } from 'node:fs';
import { Copy, DockerfileParser } from 'dockerfile-ast';
import { repoPath } from './repo-paths';

export interface DockerStage {
  name: string;
  /** The image or earlier stage this one starts from. */
  base: string;
  runs: string[];
  /** COPY sources from the build context (not from another stage). */
  contextCopies: string[];
  /** COPY --from=<stage> sources, as "stage:path". */
  stageCopies: string[];
  env: Record<string, string>;
  user?: string;
  cmd?: string[];
  healthcheck?: string;
}

/** CMD in exec form is a JSON array; the shell form runs under `sh -c`. */
function execForm(content: string): string[] {
  return content.trim().startsWith('[') ? (JSON.parse(content) as string[]) : ['/bin/sh', '-c', content];
}

/** The Dockerfile's stages, as the Docker builder reads them (parsed with dockerfile-ast). */
export function readDockerStages(path: string): DockerStage[] {
  const dockerfile = DockerfileParser.parse(readFileSync(repoPath(path), 'utf8'));
  const stages: DockerStage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword();
    if (keyword === 'FROM') {
      const from = dockerfile.getFROMs().find((candidate) => candidate.getRange().start.line === instruction.getRange().start.line);
      stages.push({
        name: from?.getBuildStage() ?? `#${stages.length}`,
        base: from?.getImageName() ?? '',
        runs: [],
        contextCopies: [],
        stageCopies: [],
        env: {},
      });
      continue;
    }
    const stage = stages[stages.length - 1];
    if (!stage) continue;
    const args = instruction.getArguments().map((argument) => argument.getValue());
    switch (keyword) {
      case 'RUN':
        stage.runs.push(instruction.getArgumentsContent() ?? '');
        break;
      case 'COPY': {
        const from = (instruction as Copy).getFromFlag()?.getValue();
        const sources = args.slice(0, -1);
        if (from) stage.stageCopies.push(...sources.map((source) => `${from}:${source}`));
        else stage.contextCopies.push(...sources);
        break;
      }
      case 'ENV':
        for (const property of (instruction as unknown as { getProperties(): { getName(): string; getValue(): string | null }[] }).getProperties()) {
          stage.env[property.getName()] = property.getValue() ?? '';
        }
        break;
      case 'USER':
        stage.user = args[0];
        break;
      case 'CMD':
        stage.cmd = execForm(instruction.getArgumentsContent() ?? '');
        break;
      case 'HEALTHCHECK':
        stage.healthcheck = instruction.getArgumentsContent() ?? '';
        break;
    }
  }
  return stages;
}

/** A stage followed back through the stages it is built FROM, nearest first. */
export function stageLineage(stages: DockerStage[], name: string): DockerStage[] {
  const lineage: DockerStage[] = [];
  let current = stages.find((stage) => stage.name === name);
  while (current && !lineage.includes(current)) {
    lineage.push(current);
    const base = current.base;
    current = stages.find((stage) => stage.name === base);
  }
  return lineage;
}

/** What a target image ends up with: env merged down the lineage, the nearest USER, CMD and HEALTHCHECK. */
export function effectiveImage(stages: DockerStage[], name: string) {
  const lineage = stageLineage(stages, name);
  return {
    lineage,
    env: Object.assign({}, ...[...lineage].reverse().map((stage) => stage.env)) as Record<string, string>,
    user: lineage.find((stage) => stage.user !== undefined)?.user,
    cmd: lineage.find((stage) => stage.cmd !== undefined)?.cmd,
    healthcheck: lineage.find((stage) => stage.healthcheck !== undefined)?.healthcheck,
  };
}
