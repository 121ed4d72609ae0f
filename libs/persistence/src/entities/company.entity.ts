import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import { CompanyRecord, maxLengthOf } from '#app/domain';

// Record fields are stored as sent, so their columns take the fields' declared lengths (a bound
// raised without its migration fails test/schema-drift.test.ts).

/** Companies read model. `id` is the log position of the company's registration. */
@Entity('companies')
@Unique('uq_companies_slug', ['slug'])
@Index('ix_companies_name', ['name', 'id'])
@Index('ix_companies_category_name', ['category', 'name', 'id'])
@Index('ix_companies_employees_name', ['employees', 'name', 'id'])
@Index('ix_companies_employees_min', ['employeesMin', 'id'])
@Index('ix_companies_created_at', ['createdAt', 'id'])
@Index('ix_companies_updated_at', ['updatedAt', 'id'])
// Trigram indexes of the search (PostgreSQL only); TypeORM cannot describe them, so it must leave them be.
@Index('ix_companies_name_trgm', { synchronize: false })
@Index('ix_companies_slug_trgm', { synchronize: false })
@Index('ix_companies_category_name_trgm', { synchronize: false })
@Index('ix_companies_category_slug_trgm', { synchronize: false })
export class CompanyEntity {
  @PrimaryColumn('integer') id!: number;
  @Column('varchar', { length: maxLengthOf(CompanyRecord, 'slug') }) slug!: string;
  @Column('varchar', { length: maxLengthOf(CompanyRecord, 'name') }) name!: string;
  @Column('varchar', { length: 64 }) category!: string;
  @Column('varchar', { length: maxLengthOf(CompanyRecord, 'employees') }) employees!: string;
  /** Lower bound of the size band, so bands sort as numbers; at most CompanyRecord's employees maxBound. */
  @Column('integer', { name: 'employees_min' }) employeesMin!: number;
  @Column('varchar', { length: maxLengthOf(CompanyRecord, 'url') }) url!: string;
  @Column('varchar', { name: 'created_at', length: 32 }) createdAt!: string;
  @Column('varchar', { name: 'updated_at', length: 32 }) updatedAt!: string;
}
