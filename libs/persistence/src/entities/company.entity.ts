import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';

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
export class CompanyEntity {
  @PrimaryColumn('integer') id!: number;
  @Column('varchar', { length: 255 }) slug!: string;
  @Column('varchar', { length: 255 }) name!: string;
  @Column('varchar', { length: 64 }) category!: string;
  @Column('varchar', { length: 32 }) employees!: string;
  /** Lower bound of the size band, so bands sort as numbers. */
  @Column('integer', { name: 'employees_min' }) employeesMin!: number;
  @Column('varchar', { length: 2048 }) url!: string;
  @Column('varchar', { name: 'created_at', length: 32 }) createdAt!: string;
  @Column('varchar', { name: 'updated_at', length: 32 }) updatedAt!: string;
}
