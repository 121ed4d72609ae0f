import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CompanyRecord, maxLengthOf } from '#app/domain';

/**
 * The price index's own copy of each company's category and size band, kept from the company
 * events, so that the projector can stamp an extraction's entries with them without reading
 * another projector's read model (which may stand at another place in the log).
 */
@Entity('price_index_companies')
export class PriceIndexCompanyEntity {
  @PrimaryColumn('varchar', { length: maxLengthOf(CompanyRecord, 'slug') }) slug!: string;
  @Column('varchar', { length: 64 }) category!: string;
  @Column('varchar', { length: maxLengthOf(CompanyRecord, 'employees') }) employees!: string;
}
