import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Exchange rates read model: one row per exchange_rate record, never changed once written. The
 * primary key leads with the pair, so the rates of a pair are one range of it.
 */
@Entity('exchange_rates')
export class ExchangeRateEntity {
  /** YYYYMMDD. */
  @PrimaryColumn('varchar', { length: 8 }) date!: string;
  @PrimaryColumn('varchar', { length: 3 }) base!: string;
  @PrimaryColumn('varchar', { length: 3 }) quote!: string;
  @Column('double precision') rate!: number;
}
