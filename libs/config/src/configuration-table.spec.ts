import { readFileSync } from 'node:fs';
import { getMetadataStorage } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { EnvironmentVariables, VARIABLE_DOCS } from './environment.js';

/** The rows of the operators' guide's configuration table: variable, default, meaning, as written. */
function guideRows(): string[][] {
  const guide = readFileSync(new URL('../../../docs/operators.md', import.meta.url), 'utf8');
  const section = guide.split('\n## Configuration\n')[1]!.split('\n## ')[0]!;
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
}

/** The same rows as the schema documents them. */
function schemaRows(): string[][] {
  const defaults = new EnvironmentVariables() as unknown as Record<string, unknown>;
  return [...VARIABLE_DOCS].map(([name, { meaning, shownDefault }]) => [
    `\`${name}\``,
    shownDefault ?? (defaults[name] === undefined ? 'unset' : `\`${String(defaults[name])}\``),
    meaning,
  ]);
}

describe("the operators' guide's configuration table", () => {
  it('lists every variable of the schema, with its default and meaning, and nothing else', () => {
    expect(guideRows()).toEqual(schemaRows());
  });

  it('documents every variable the schema validates', () => {
    const validated = getMetadataStorage()
      .getTargetValidationMetadatas(EnvironmentVariables, '', false, false)
      .map((metadata) => metadata.propertyName);
    expect([...new Set(validated)].sort()).toEqual([...VARIABLE_DOCS.keys()].sort());
  });
});
