import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';
import { RECORD_BOUNDS } from '#app/domain';

// Record fields are stored as sent, so their columns take the fields' declared lengths (a bound
// raised without its migration fails test/schema-drift.test.ts).
const { pricing } = RECORD_BOUNDS;

/** One ready-to-serve pricing document (JSON text) per page and version. */
@Entity('pricing_snapshots')
@Unique('uq_pricing_snapshots_page_version', ['pageId', 'version'])
export class PricingSnapshotEntity {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { name: 'page_id', length: 36 }) pageId!: string;
  @Column('varchar', { name: 'company_slug', length: pricing.company_slug.maxLength })
  companySlug!: string;
  @Column('varchar', { name: 'page_slug', length: pricing.page_slug.maxLength })
  pageSlug!: string;
  @Column('varchar', { length: 8 }) version!: string;
  @Column('text') document!: string;
  @Column('varchar', { name: 'created_at', length: 32 }) createdAt!: string;
}
