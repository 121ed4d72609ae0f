import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';
import { ScrapeRecord, maxLengthOf } from '#app/domain';

// Record fields are stored as sent, so their columns take the fields' declared lengths (a bound
// raised without its migration fails test/schema-drift.test.ts).

/** Scrape files read model: one row per page, version and scraper; never changes once written. */
@Entity('scrape_files')
@Unique('uq_scrape_files_page_version_scraper', ['pageId', 'version', 'scraper'])
export class ScrapeFileEntity {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { name: 'page_id', length: 36 }) pageId!: string;
  @Column('varchar', { name: 'company_slug', length: maxLengthOf(ScrapeRecord, 'company_slug') })
  companySlug!: string;
  @Column('varchar', { name: 'page_slug', length: maxLengthOf(ScrapeRecord, 'page_slug') })
  pageSlug!: string;
  @Column('varchar', { length: 8 }) version!: string;
  /** Longer than maxLengthOf(ScrapeRecord, 'scraper'), which the event log's stream id sets. */
  @Column('varchar', { length: 64 }) scraper!: string;
  @Column('varchar', { name: 'page_url', length: maxLengthOf(ScrapeRecord, 'page_url') })
  pageUrl!: string;
  @Column('varchar', {
    name: 'screenshot_url',
    length: maxLengthOf(ScrapeRecord, 'screenshot_url'),
    nullable: true,
  })
  screenshotUrl!: string | null;
  @Column('varchar', {
    name: 'markdown_url',
    length: maxLengthOf(ScrapeRecord, 'markdown_url'),
    nullable: true,
  })
  markdownUrl!: string | null;
  @Column('varchar', {
    name: 'html_url',
    length: maxLengthOf(ScrapeRecord, 'html_url'),
    nullable: true,
  })
  htmlUrl!: string | null;
  @Column('varchar', {
    name: 'ocr_url',
    length: maxLengthOf(ScrapeRecord, 'ocr_url'),
    nullable: true,
  })
  ocrUrl!: string | null;
  @Column('boolean', { nullable: true }) valid!: boolean | null;
  @Column('integer', { nullable: true }) score!: number | null;
  @Column('boolean', { name: 'banner_free', nullable: true }) bannerFree!: boolean | null;
  @Column('varchar', { name: 'created_at', length: 32 }) createdAt!: string;
  @Column('varchar', { name: 'updated_at', length: 32 }) updatedAt!: string;
}
