import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The exchange rates read model: one row per exchange_rate record (1 base is worth rate quote on
 * date), keyed by the pair first so that the rates of a pair are one range of the key. The
 * same statements on both databases.
 */
export class ExchangeRates1764600000000 implements MigrationInterface {
  name = 'ExchangeRates1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE exchange_rates (
      date varchar(8) NOT NULL,
      base varchar(3) NOT NULL,
      quote varchar(3) NOT NULL,
      rate double precision NOT NULL,
      PRIMARY KEY (base, quote, date)
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE exchange_rates');
  }
}
