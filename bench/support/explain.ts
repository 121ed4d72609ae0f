import type pg from 'pg';

/** PostgreSQL's plan of a statement as it ran (EXPLAIN ANALYZE, with buffers), one line a row. */
export async function explainAnalyze(
  pool: pg.Pool,
  sql: string,
  parameters: unknown[],
): Promise<string> {
  const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
    parameters,
  );
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}
