import { weighChange, type PricingChangeType } from '#app/domain';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf, placeholders, runSql } from '../sql.js';

/** Changes weighed per statement: seven parameters each, well within MAX_PARAMETERS. */
const BATCH = 1_000;

/** A change as this migration reads it: its key and what weighs it. */
interface ChangeRow {
  event_transaction_id: string | number;
  event_seq: string | number;
  change_index: number;
  event_type: string;
  charge_billing: string | null;
  field: string | null;
  /** JSON text, read for price changes only (for the others, whole plans: not needed). */
  old_value: string | null;
  new_value: string | null;
}

/**
 * How much each change of the feed matters (weighChange): its significance, and a price change's
 * monthly equivalents and change_percent. The projector writes them from now on; the rows
 * already there are weighed here, a thousand at a time in key order, by the same function, from
 * what each row holds (a price change's prices and billing; a charge's billing; the field), so
 * a deployed database needs no rebuild and a rebuild later writes the same values. significance
 * stays nullable because SQLite adds a NOT NULL column only with a default; every row has one
 * once this has run. Each level a feed filters on has an index of the feed position restricted
 * to it (min_significance=moderate reads the first, =major the second), written exactly as the
 * reader's condition so that both databases use them.
 *
 * Webhooks get their new filters, all nullable: null is no filter, as for event_types and
 * companies, so the webhooks already registered keep receiving what they did.
 *
 * The same statements on both databases.
 */
export class ChangeSignificance1764900000000 implements MigrationInterface {
  name = 'ChangeSignificance1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of [
      'ALTER TABLE pricing_changes ADD COLUMN old_monthly_equivalent double precision',
      'ALTER TABLE pricing_changes ADD COLUMN new_monthly_equivalent double precision',
      'ALTER TABLE pricing_changes ADD COLUMN change_percent double precision',
      'ALTER TABLE pricing_changes ADD COLUMN significance varchar(8)',
      'ALTER TABLE webhooks ADD COLUMN categories text',
      'ALTER TABLE webhooks ADD COLUMN min_significance varchar(8)',
      'ALTER TABLE webhooks ADD COLUMN min_change_percent double precision',
    ]) {
      await queryRunner.query(statement);
    }
    await weighExistingChanges(queryRunner);
    await queryRunner.query(
      `CREATE INDEX "ix_pricing_changes_moderate" ON "pricing_changes" ("event_transaction_id", "event_seq", "change_index") WHERE significance IN ('moderate', 'major')`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_pricing_changes_major" ON "pricing_changes" ("event_transaction_id", "event_seq", "change_index") WHERE significance = 'major'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "ix_pricing_changes_major"');
    await queryRunner.query('DROP INDEX "ix_pricing_changes_moderate"');
    for (const column of ['min_change_percent', 'min_significance', 'categories']) {
      await queryRunner.query(`ALTER TABLE webhooks DROP COLUMN ${column}`);
    }
    for (const column of [
      'significance',
      'change_percent',
      'new_monthly_equivalent',
      'old_monthly_equivalent',
    ]) {
      await queryRunner.query(`ALTER TABLE pricing_changes DROP COLUMN ${column}`);
    }
  }
}

async function weighExistingChanges(queryRunner: QueryRunner): Promise<void> {
  const dialect = dialectOf(queryRunner.connection.options);
  const sql = <T>(text: string, params: unknown[] = []) =>
    runSql<T>(queryRunner.manager, dialect, text, params);
  let after: unknown[] | null = null;
  for (;;) {
    const rows: ChangeRow[] = await sql<ChangeRow>(
      `SELECT event_transaction_id, event_seq, change_index, event_type, charge_billing, field,
         CASE WHEN event_type IN ('price_increased', 'price_decreased') THEN old_value END AS old_value,
         CASE WHEN event_type IN ('price_increased', 'price_decreased') THEN new_value END AS new_value
       FROM pricing_changes
       ${after ? 'WHERE (event_transaction_id, event_seq, change_index) > ($1, $2, $3)' : ''}
       ORDER BY event_transaction_id, event_seq, change_index
       LIMIT ${BATCH}`,
      after ?? [],
    );
    const last = rows.at(-1);
    if (!last) return;
    const params = rows.flatMap((row) => {
      const weight = weighChange({
        // The projector stored diffPricing's types, all of the fixed list.
        event_type: row.event_type as PricingChangeType,
        charge:
          row.charge_billing === null ? null : { billing: row.charge_billing, display_name: '' },
        field: row.field,
        old_value: row.old_value === null ? null : (JSON.parse(row.old_value) as unknown),
        new_value: row.new_value === null ? null : (JSON.parse(row.new_value) as unknown),
      });
      return [
        row.event_transaction_id,
        row.event_seq,
        row.change_index,
        weight.significance,
        weight.old_monthly_equivalent ?? null,
        weight.new_monthly_equivalent ?? null,
        weight.change_percent ?? null,
      ];
    });
    const tuples = rows.map((_row, i) => `(${placeholders(7, 7 * i + 1)})`);
    const first = rows[0]!;
    const range = 7 * rows.length;
    // VALUES names its columns column1, column2... on both databases; its parameters are text
    // to PostgreSQL until cast. The batch's range of the key keeps PostgreSQL from joining them
    // with the whole table (a hash join over a scan of every row, once per batch).
    await sql(
      `UPDATE pricing_changes SET
         significance = weights.column4,
         old_monthly_equivalent = CAST(weights.column5 AS double precision),
         new_monthly_equivalent = CAST(weights.column6 AS double precision),
         change_percent = CAST(weights.column7 AS double precision)
       FROM (VALUES ${tuples.join(', ')}) AS weights
       WHERE pricing_changes.event_transaction_id = CAST(weights.column1 AS bigint)
         AND pricing_changes.event_seq = CAST(weights.column2 AS bigint)
         AND pricing_changes.change_index = CAST(weights.column3 AS integer)
         AND (pricing_changes.event_transaction_id, pricing_changes.event_seq, pricing_changes.change_index)
           BETWEEN (${placeholders(3, range + 1)}) AND (${placeholders(3, range + 4)})`,
      [
        ...params,
        first.event_transaction_id,
        first.event_seq,
        first.change_index,
        last.event_transaction_id,
        last.event_seq,
        last.change_index,
      ],
    );
    after = [last.event_transaction_id, last.event_seq, last.change_index];
  }
}
