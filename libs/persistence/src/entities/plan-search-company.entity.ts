import { Column, Entity, PrimaryColumn } from 'typeorm';
import { RECORD_BOUNDS } from '#app/domain';

const { company } = RECORD_BOUNDS;

/**
 * The plan search's own copy of each company's profile, kept from the company events, so that
 * the projector can stamp a page's plans with it when an extraction arrives without reading
 * another projector's read model (which may stand at another place in the log).
 */
@Entity('plan_search_companies')
export class PlanSearchCompanyEntity {
  @PrimaryColumn('varchar', { length: company.slug.maxLength }) slug!: string;
  @Column('varchar', { length: company.name.maxLength }) name!: string;
  @Column('varchar', { length: 64 }) category!: string;
  @Column('varchar', { length: company.employees.maxLength }) employees!: string;
}
