import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CompanyRecord, maxLengthOf } from '#app/domain';

/**
 * The plan search's own copy of each company's profile, kept from the company events, so that
 * the projector can stamp a page's plans with it when an extraction arrives without reading
 * another projector's read model (which may stand at another place in the log).
 */
@Entity('plan_search_companies')
export class PlanSearchCompanyEntity {
  @PrimaryColumn('varchar', { length: maxLengthOf(CompanyRecord, 'slug') }) slug!: string;
  @Column('varchar', { length: maxLengthOf(CompanyRecord, 'name') }) name!: string;
  @Column('varchar', { length: 64 }) category!: string;
  @Column('varchar', { length: maxLengthOf(CompanyRecord, 'employees') }) employees!: string;
}
