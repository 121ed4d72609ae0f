import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** One ready-to-serve pricing document (JSON text) per page and version. */
@Entity('pricing_snapshots')
@Unique('uq_pricing_snapshots_page_version', ['pageId', 'version'])
export class PricingSnapshotEntity {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { name: 'page_id', length: 36 }) pageId!: string;
  @Column('varchar', { name: 'company_slug', length: 255 }) companySlug!: string;
  @Column('varchar', { name: 'page_slug', length: 100 }) pageSlug!: string;
  @Column('varchar', { length: 8 }) version!: string;
  @Column('text') document!: string;
  @Column('varchar', { name: 'created_at', length: 32 }) createdAt!: string;
}
