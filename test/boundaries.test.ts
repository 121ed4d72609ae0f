import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The boundaries `npm run lint` enforces (eslint.config.js): each case plants a violation in a
 * file of the tree, as someone might write it, and lints it with the project's own config.
 */
const eslint = new ESLint();

async function problemsOf(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('the boundaries npm run lint enforces', () => {
  it('refuses an app importing another app', async () => {
    const problems = await problemsOf(
      'apps/worker/src/planted.ts',
      "import { createHttpApp } from '../../api/src/http-app.js';\nexport const app = createHttpApp;\n",
    );
    expect(problems).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*never imports another app/),
    ]);
  });

  it('refuses a library importing one above it (a cycle in the making)', async () => {
    const problems = await problemsOf(
      'libs/config/src/planted.ts',
      "import { IngestQueue } from '#app/contracts';\nexport const queue = IngestQueue;\n",
    );
    expect(problems).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*libs\/config may import #app\/domain/),
    ]);
  });

  it('refuses a library reaching into another by a relative path', async () => {
    const problems = await problemsOf(
      'libs/access/src/planted.ts',
      "import { EventStore } from '../../persistence/src/events/event-store.js';\nexport const store = EventStore;\n",
    );
    expect(problems).toEqual([expect.stringMatching(/^no-restricted-imports: /)]);
  });

  it('keeps TypeORM in libs/persistence and frameworks out of libs/domain', async () => {
    const typeorm = "import { DataSource } from 'typeorm';\nexport const source = DataSource;\n";
    expect(await problemsOf('libs/observability/src/planted.ts', typeorm)).toEqual([
      expect.stringMatching(/TypeORM stays in libs\/persistence/),
    ]);
    expect(await problemsOf('apps/api/src/planted.ts', typeorm)).toHaveLength(1);
    expect(await problemsOf('libs/persistence/src/planted.ts', typeorm)).toEqual([]);
    const nest = "import { Injectable } from '@nestjs/common';\nexport const mark = Injectable;\n";
    expect(await problemsOf('libs/domain/src/planted.ts', nest)).toEqual([
      expect.stringMatching(/domain library is plain TypeScript/),
    ]);
    expect(await problemsOf('libs/mcp/src/planted.ts', nest)).toEqual([
      expect.stringMatching(/libs\/mcp reaches the API through libs\/client alone/),
    ]);
  });

  it('refuses an API feature folder importing another, not a shared folder', async () => {
    const sibling =
      "import { PlanDto } from '../pricing/pricing.dto.js';\nexport const plan = PlanDto;\n";
    expect(await problemsOf('apps/api/src/plans/planted.ts', sibling)).toEqual([
      expect.stringMatching(
        /^no-restricted-imports: .*apps\/api\/src\/plans imports no other feature/,
      ),
    ]);
    const shared =
      "import { PlanDto } from '../openapi/shared.dto.js';\n" +
      "import { ApiError } from '../errors/api-error.js';\n" +
      'export const parts = [PlanDto, ApiError];\n';
    expect(await problemsOf('apps/api/src/plans/planted.ts', shared)).toEqual([]);
  });

  it("keeps the apps' own boundaries in a feature folder (its rule replaces theirs)", async () => {
    const typeorm = "import { DataSource } from 'typeorm';\nexport const source = DataSource;\n";
    expect(await problemsOf('apps/api/src/plans/planted.ts', typeorm)).toEqual([
      expect.stringMatching(/TypeORM stays in libs\/persistence/),
    ]);
  });

  it('reads process.env only in libs/config', async () => {
    const code = 'export const port = process.env.PORT;\n';
    expect(await problemsOf('apps/api/src/planted.ts', code)).toEqual([
      expect.stringMatching(/^no-restricted-properties: .*libs\/config/),
    ]);
    expect(await problemsOf('libs/config/src/planted.ts', code)).toEqual([]);
  });

  it('lets the standalone app compose the API and the worker', async () => {
    const code =
      "import { createHttpApp } from '../../api/src/http-app.js';\n" +
      "import { WorkerModule } from '../../worker/src/worker.module.js';\n" +
      'export const parts = [createHttpApp, WorkerModule];\n';
    expect(await problemsOf('apps/standalone/src/planted.ts', code)).toEqual([]);
  });
});
