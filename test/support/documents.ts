import { readdirSync, readFileSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url);

/** The README and every guide under docs/, as paths from the repository's root. */
export const DOCUMENTS: readonly string[] = [
  'README.md',
  'BENCHMARKS.md',
  ...readdirSync(new URL('docs/', ROOT))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** A document's text, by its path from the repository's root. */
export const documentText = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8');
