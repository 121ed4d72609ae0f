/**
 * A small reader of the Prometheus text exposition format (version 0.0.4), enough for tests to
 * read exact values: `# TYPE` lines, samples with escaped label values, optional timestamps.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** Metric family name to its declared type (counter, gauge, histogram, ...). */
  types: Map<string, string>;
  /** Samples of `name` whose labels include every pair of `where`. */
  series(name: string, where?: Record<string, string>): Sample[];
  /** The value of the one sample of `name` whose labels are exactly `labels`; undefined if none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;

export function parsePrometheusText(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type) types.set(type[1] as string, type[2] as string);
      continue;
    }
    samples.push(parseSample(line, index + 1));
  }
  const series = (name: string, where: Record<string, string> = {}) =>
    samples.filter(
      (sample) =>
        sample.name === name &&
        Object.entries(where).every(([label, value]) => sample.labels[label] === value),
    );
  return {
    samples,
    types,
    series,
    value(name, labels = {}) {
      const wanted = Object.keys(labels).length;
      const found = series(name, labels).filter(
        (sample) => Object.keys(sample.labels).length === wanted,
      );
      if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} is not unique`);
      return found[0]?.value;
    },
  };
}

function parseSample(line: string, lineNumber: number): Sample {
  const fail = (why: string) => new Error(`line ${lineNumber}: ${why}: ${line}`);
  const name = NAME.exec(line)?.[0];
  if (!name) throw fail('no metric name');
  let at = name.length;
  const labels: Record<string, string> = {};
  if (line[at] === '{') {
    at++;
    while (line[at] !== '}') {
      const label = /^\s*([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(line.slice(at));
      if (!label) throw fail('bad label');
      at += label[0].length;
      let value = '';
      for (; line[at] !== '"'; at++) {
        if (at >= line.length) throw fail('unterminated label value');
        if (line[at] === '\\') {
          at++;
          value += line[at] === 'n' ? '\n' : line[at];
        } else value += line[at];
      }
      labels[label[1] as string] = value;
      at++;
      if (line[at] === ',') at++;
    }
    at++;
  }
  const [valueText] = line.slice(at).trim().split(/\s+/);
  const value = parseValue(valueText ?? '');
  if (value === undefined) throw fail('bad value');
  return { name, labels, value };
}

/** Prometheus reads values as Go's ParseFloat does: NaN and Inf in any case. */
function parseValue(text: string): number | undefined {
  const special = text.toLowerCase();
  if (special === 'nan') return NaN;
  if (special === '+inf' || special === 'inf') return Infinity;
  if (special === '-inf') return -Infinity;
  const value = Number(text);
  return text === '' || Number.isNaN(value) ? undefined : value;
}
