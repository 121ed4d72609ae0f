import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** Scrape files read model: one row per page, version and scraper; never changes once written. */
@Entity('scrape_files')
@Unique('uq_scrape_files_page_version_scraper', ['pageId', 'version', 'scraper'])
export class ScrapeFileEntity {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { name: 'page_id', length: 36 }) pageId!: string;
  @Column('varchar', { name: 'company_slug', length: 255 }) companySlug!: string;
  @Column('varchar', { name: 'page_slug', length: 100 }) pageSlug!: string;
  @Column('varchar', { length: 8 }) version!: string;
  @Column('varchar', { length: 64 }) scraper!: string;
  @Column('varchar', { name: 'page_url', length: 2048 }) pageUrl!: string;
  @Column('varchar', { name: 'screenshot_url', length: 2048, nullable: true }) screenshotUrl!:
    string | null;
  @Column('varchar', { name: 'markdown_url', length: 2048, nullable: true }) markdownUrl!:
    string | null;
  @Column('varchar', { name: 'html_url', length: 2048, nullable: true }) htmlUrl!: string | null;
  @Column('varchar', { name: 'ocr_url', length: 2048, nullable: true }) ocrUrl!: string | null;
  @Column('boolean', { nullable: true }) valid!: boolean | null;
  @Column('integer', { nullable: true }) score!: number | null;
  @Column('boolean', { name: 'banner_free', nullable: true }) bannerFree!: boolean | null;
  @Column('varchar', { name: 'created_at', length: 32 }) createdAt!: string;
  @Column('varchar', { name: 'updated_at', length: 32 }) updatedAt!: string;
}
