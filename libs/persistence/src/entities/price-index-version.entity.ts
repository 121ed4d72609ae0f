import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Every extraction of every page, with the version of the page's next extraction: the
 * extraction is in force from its version until that one. An extraction without any priced
 * charge is here too, since it ends the one before it all the same.
 */
@Entity('price_index_versions')
export class PriceIndexVersionEntity {
  @PrimaryColumn('varchar', { name: 'page_id', length: 36 }) pageId!: string;
  @PrimaryColumn('varchar', { length: 8 }) version!: string;
  /** The page's next extraction's version (the first day it is no longer in force); null: none yet. */
  @Column('varchar', { length: 8, nullable: true }) until!: string | null;
}
