/**
 * The answers of a fuzz run counted by operation and status, and printed as Markdown tables (the
 * figures of the architecture guide's Fuzzing section come from them).
 */

/**
 * Statuses given before the route's own code runs: authentication, scope and plan, limits, and
 * what Fastify refuses before routing (size, media type, URL and header length).
 */
const REFUSED_BEFORE_THE_ROUTE = new Set([401, 403, 413, 414, 415, 429, 431]);

export class FuzzFigures {
  private readonly counts = new Map<string, Map<number, number>>();

  record(operation: string, status: number): void {
    const statuses = this.counts.get(operation) ?? new Map<number, number>();
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    this.counts.set(operation, statuses);
  }

  get total(): number {
    return this.sum(() => true);
  }

  /** Requests the route's own code answered (a 2xx, 304, 400 or 404 of its own). */
  get reachedTheRoute(): number {
    return this.sum((status) => !REFUSED_BEFORE_THE_ROUTE.has(status));
  }

  /** The operations that never answered with a 2xx. */
  operationsWithoutSuccess(operations: string[]): string[] {
    return operations.filter((operation) => {
      const statuses = this.counts.get(operation);
      return ![...(statuses?.keys() ?? [])].some((status) => status >= 200 && status < 300);
    });
  }

  /** Requests per status on one line: `200: 812, 400: 640, ...` */
  statusLine(): string {
    return this.statuses()
      .map((status) => `${status}: ${this.sum((candidate) => candidate === status)}`)
      .join(', ');
  }

  /** Requests per status, then requests per operation and status. */
  report(title: string): string {
    const statuses = this.statuses();
    const byStatus = statuses.map((status) => {
      const count = this.sum((candidate) => candidate === status);
      return `| ${status} | ${count} | ${percent(count, this.total)} |`;
    });
    const byOperation = [...this.counts.entries()].map(([operation, counts]) => {
      const cells = statuses.map((status) => String(counts.get(status) ?? ''));
      const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
      return `| ${operation} | ${total} | ${cells.join(' | ')} |`;
    });
    return [
      `${title}: ${this.total} requests, ${percent(this.reachedTheRoute, this.total)} answered by the route itself ` +
        `(not refused by authentication, limits, size or media type)`,
      '',
      '| status | requests | share |',
      '| --- | --- | --- |',
      ...byStatus,
      '',
      `| operation | requests | ${statuses.join(' | ')} |`,
      `| --- | --- | ${statuses.map(() => '---').join(' | ')} |`,
      ...byOperation,
    ].join('\n');
  }

  private statuses(): number[] {
    const seen = new Set([...this.counts.values()].flatMap((byStatus) => [...byStatus.keys()]));
    return [...seen].sort((a, b) => a - b);
  }

  private sum(predicate: (status: number) => boolean): number {
    let total = 0;
    for (const statuses of this.counts.values()) {
      for (const [status, count] of statuses) if (predicate(status)) total += count;
    }
    return total;
  }
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '0%' : `${((100 * part) / whole).toFixed(1)}%`;
}
