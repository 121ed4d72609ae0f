import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import {
  ChargeInput,
  CompanyRecord,
  PricingMetricInput,
  PricingRecord,
  maxLengthOf,
} from '#app/domain';

/**
 * One entry-price candidate of an extraction (EntryPriceCandidate in the domain): of its
 * charges of one billing, modality and currency in plans that are not add-ons, the lowest
 * monthly equivalent above 0. Any filter of billing and modality, and any target currency,
 * is answered from these rows without the document. Each carries its extraction's `until` and
 * its company's slug, category and band (kept up to date by CompanyProfileChanged), so that a
 * sample at any dates is read from one index.
 */
@Entity('price_index_entries')
@Index('ix_price_index_entries_company', ['companySlug'])
// Every column a sample reads, after the page filters and the version (the migration).
@Index('ix_price_index_entries_filter', [
  'category',
  'employees',
  'version',
  'until',
  'pageId',
  'billing',
  'modality',
  'currency',
  'monthly',
])
// A sample of every page: the extractions in force on a date, by their end, then their start.
@Index('ix_price_index_entries_in_force', ['until', 'version'])
export class PriceIndexEntryEntity {
  @PrimaryColumn('varchar', { name: 'page_id', length: 36 }) pageId!: string;
  @PrimaryColumn('varchar', { length: 8 }) version!: string;
  /** The candidate's place among its extraction's. */
  @PrimaryColumn('integer', { name: 'entry_index' }) entryIndex!: number;
  /** As on the extraction's PriceIndexVersionEntity. */
  @Column('varchar', { length: 8, nullable: true }) until!: string | null;
  @Column('varchar', { name: 'company_slug', length: maxLengthOf(PricingRecord, 'company_slug') })
  companySlug!: string;
  @Column('varchar', { length: 64 }) category!: string;
  @Column('varchar', { length: maxLengthOf(CompanyRecord, 'employees') }) employees!: string;
  @Column('varchar', { length: maxLengthOf(ChargeInput, 'billing') }) billing!: string;
  /** The charges' pricing metric's modality; null for charges without a metric. */
  @Column('varchar', { length: maxLengthOf(PricingMetricInput, 'modality'), nullable: true })
  modality!: string | null;
  @Column('varchar', { length: 3 }) currency!: string;
  /** Unrounded, in `currency`, above 0. */
  @Column('double precision') monthly!: number;
}
