import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli-process.js';
import { DOCUMENTS, documentText } from './support/documents.js';

/*
 * The README is the front door and the guides under docs/ stand alone: the README stays short,
 * every link between them lands on a file and a heading that exist, none leaves the repository
 * except for a library's own documentation, and the dependency table names exactly the packages
 * of package.json; every TypeScript snippet compiles, and every command-line example names a
 * command and options the CLI has. (The configuration table is checked against the schema by
 * libs/config/src/configuration-table.spec.ts; the curl examples are run on the demo data by
 * test/standalone.test.ts.)
 */

/**
 * The slow checks (a compile of every snippet, the CLI's help for each command) read no database:
 * CI runs them once, in the SQLite run, not again in the PostgreSQL one.
 */
const itOnce = it.skipIf(process.env.TEST_DATABASE_URL?.startsWith('postgres') ?? false);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const README_MAX_LINES = 250;

/** Where a link may lead outside the repository: the documentation of a library it uses. */
const LIBRARY_DOCUMENTATION = [
  'docs.nestjs.com',
  'getpino.io',
  'openapi-ts.dev',
  'modelcontextprotocol.io',
  'docs.bullmq.io',
  'typeorm.io',
  'github.com/redis/ioredis',
  'github.com/taskforcesh/bullmq',
  'github.com/helmetjs/helmet',
  'github.com/siimon/prom-client',
];

const read = documentText;

/** The text outside fenced code blocks (where a link is a link). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** GitHub's anchors of a document's headings, duplicates numbered as GitHub numbers them. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading!
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every markdown link and image target outside code: `[text](target)`. */
function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(
    ([, target]) => target!,
  );
}

describe('the documentation', () => {
  it(`keeps the README a front door of at most ${README_MAX_LINES} lines`, () => {
    expect(read('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('has every link land on a file and a heading that exist, and leave only for a library', () => {
    const broken: string[] = [];
    for (const document of DOCUMENTS) {
      for (const target of linksOf(read(document))) {
        if (/^[a-z]+:/i.test(target)) {
          const address = target.replace(/^https?:\/\//, '');
          if (!LIBRARY_DOCUMENTATION.some((allowed) => address.startsWith(allowed))) {
            broken.push(`${document}: ${target} leaves the repository`);
          }
          continue;
        }
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file =
          path === '' ? document : relative(ROOT, resolve(ROOT, dirname(document), path));
        if (file.startsWith('..') || !existsSync(join(ROOT, file))) {
          broken.push(`${document}: ${target} names no file of the repository`);
          continue;
        }
        if (anchor && file.endsWith('.md') && !anchorsOf(read(file)).has(anchor)) {
          broken.push(`${document}: ${target} names no heading of ${file}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('names in its dependency table exactly the packages of package.json, each with a why', () => {
    const manifest = JSON.parse(read('package.json')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const packages = [
      ...Object.keys(manifest.dependencies),
      ...Object.keys(manifest.devDependencies),
    ];
    const architecture = read('docs/architecture.md');
    const section = architecture.slice(architecture.indexOf('## Dependencies and why'));
    const rows = section
      .split('\n')
      .filter((line) => line.startsWith('| ') && !/^\| -/.test(line))
      .slice(1);
    const named: string[] = [];
    for (const row of rows) {
      const cells = row
        .split('|')
        .slice(1, -1)
        .map((part) => part.trim());
      const [cell, why] = [cells[0]!, cells.at(-1)!];
      expect(why, row).toMatch(/\w{3}/);
      for (const [, name] of cell!.matchAll(/`([^`]+)`/g)) named.push(name!);
    }
    const covers = (name: string) =>
      named.some((entry) =>
        entry.endsWith('/*') ? name.startsWith(entry.slice(0, -1)) : entry === name,
      );
    expect(packages.filter((name) => !covers(name))).toEqual([]);
    expect(
      named.filter(
        (entry) =>
          !(entry.endsWith('/*')
            ? packages.some((name) => name.startsWith(entry.slice(0, -1)))
            : packages.includes(entry)),
      ),
    ).toEqual([]);
  });

  itOnce(
    'has every TypeScript snippet compile against the code it shows',
    () => {
      // A snippet written for a project that copied libs/client as ./pricing-client imports it there.
      const snippets = DOCUMENTS.flatMap((document) =>
        [...read(document).matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => ({
          document,
          code: match[1]!.replaceAll(
            "'./pricing-client/index.js'",
            "'../libs/client/src/index.js'",
          ),
        })),
      );
      expect(snippets.length).toBeGreaterThan(0);
      // Inside the repository, so that `#app/...` and the packages resolve as the code's own do.
      const directory = mkdtempSync(join(ROOT, '.snippets-'));
      try {
        const files = snippets.map(({ document, code }, index) => {
          const file = join(directory, `${document.replace(/\W/g, '-')}-${index}.ts`);
          writeFileSync(file, `${code}\nexport {};\n`);
          return file;
        });
        const { config } = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
        const { options, fileNames } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
        // With the project's own declarations of untyped packages.
        const declarations = fileNames.filter((file) => file.endsWith('.d.ts'));
        const program = ts.createProgram([...files, ...declarations], {
          ...options,
          noEmit: true,
          sourceMap: false,
        });
        const problems = ts
          .getPreEmitDiagnostics(program)
          .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
        expect(problems).toEqual([]);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
    60_000,
  );

  itOnce(
    'names in every command-line example a command and options the CLI has',
    async () => {
      const examples = DOCUMENTS.flatMap((document) =>
        [...read(document).matchAll(/npm run cli -- ([a-z:-]+)([^`\n#]*)/g)].map((match) => ({
          document,
          command: match[1]!,
          options: [...match[2]!.matchAll(/--[a-z-]+/g)].map(([option]) => option),
        })),
      );
      expect(examples.length).toBeGreaterThan(5);
      // Each command's help once, one after another: a dozen CLI processes started together on a
      // loaded two-core machine outlast runCli's time limit.
      const helps = new Map<string, string | null>();
      for (const command of new Set(examples.map(({ command }) => command))) {
        const help = await runCli({}, [command, '--help']);
        helps.set(command, help.code === 0 ? help.stdout : null);
      }
      const unknown: string[] = [];
      for (const { document, command, options } of examples) {
        const help = helps.get(command);
        if (!help) unknown.push(`${document}: no command cli ${command}`);
        for (const option of options) {
          if (help && !help.includes(option)) unknown.push(`${document}: cli ${command} ${option}`);
        }
      }
      expect(unknown).toEqual([]);
    },
    180_000,
  );
});
