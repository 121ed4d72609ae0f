import { Injectable } from '@nestjs/common';
import { In, type Repository } from 'typeorm';
import { CompanyEntity } from '../entities/company.entity.js';
import { ReadDatabase } from '../replicas/read-database.js';

export const COMPANY_SORT_COLUMNS = {
  name: 'name',
  slug: 'slug',
  category: 'category',
  // Bands sort by their lower bound, not as text ("1000+" after "51-200").
  employees: 'employeesMin',
  created_at: 'createdAt',
  updated_at: 'updatedAt',
} as const;

export type CompanySortField = keyof typeof COMPANY_SORT_COLUMNS;

/** What a companies list is filtered by. */
export interface CompanyFilters {
  /** Case-insensitive substring of the name or slug. */
  search?: string;
  /** Exact, in the canonical spelling. */
  category?: string;
  /** Exact band, e.g. `51-200`. */
  employees?: string;
}

/** The order of a companies list (ties are broken by id, in the same direction). */
export interface CompanyOrder {
  sort: CompanySortField;
  descending: boolean;
}

export interface CompanyListQuery extends CompanyFilters, CompanyOrder {
  limit: number;
  offset: number;
}

/** Escapes LIKE wildcards so a search for "50%" finds "50%", not everything. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

@Injectable()
export class CompanyReader {
  constructor(private readonly database: ReadDatabase) {}

  /** One page of the companies matching `query`, in its order (ties broken by id). */
  page(query: CompanyListQuery): Promise<CompanyEntity[]> {
    return this.companies((companies) =>
      ordered(companies, query).offset(query.offset).limit(query.limit).getMany(),
    );
  }

  /**
   * The ids of every company matching `query`, in its order, or null when more than `most`
   * match: one read that every page of a narrow search can then be cut from.
   */
  async matchingIds(query: CompanyOrder & CompanyFilters, most: number): Promise<number[] | null> {
    const rows = await this.companies((companies) =>
      ordered(companies, query)
        .select('company.id', 'id')
        .limit(most + 1)
        .getRawMany<{ id: number | string }>(),
    );
    return rows.length > most ? null : rows.map((row) => Number(row.id));
  }

  /** The companies with these ids, in the order of `ids` (an id no longer there is skipped). */
  async byIds(ids: readonly number[]): Promise<CompanyEntity[]> {
    if (ids.length === 0) return [];
    const found = new Map(
      (await this.companies((companies) => companies.findBy({ id: In(ids) }))).map((company) => [
        company.id,
        company,
      ]),
    );
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /** How many companies match `filters` (a plain COUNT: getManyAndCount's COUNT(DISTINCT id) sorts them all). */
  async count(filters: CompanyFilters): Promise<number> {
    const counted = await this.companies((companies) =>
      matching(companies, filters)
        .select('COUNT(*)', 'total')
        .getRawOne<{ total: number | string }>(),
    );
    return Number(counted?.total ?? 0);
  }

  /** How many companies each category has; categories without one are absent. */
  async countByCategory(): Promise<Map<string, number>> {
    const rows = await this.companies((companies) =>
      companies
        .createQueryBuilder('company')
        .select('company.category', 'category')
        .addSelect('COUNT(*)', 'companies')
        .groupBy('company.category')
        .getRawMany<{ category: string; companies: number | string }>(),
    );
    return new Map(rows.map((row) => [row.category, Number(row.companies)]));
  }

  /** The category of each of these companies (a slug not known is absent). */
  async categoriesOf(slugs: readonly string[]): Promise<Map<string, string>> {
    if (slugs.length === 0) return new Map();
    const rows = await this.companies((companies) =>
      companies.find({ select: { slug: true, category: true }, where: { slug: In([...slugs]) } }),
    );
    return new Map(rows.map((company) => [company.slug, company.category]));
  }

  findBySlug(slug: string): Promise<CompanyEntity | null> {
    return this.companies((companies) => companies.findOneBy({ slug }));
  }

  /** Companies whose slug is `base` plus one domain extension (`notion` -> `notion.so`). */
  async findByBase(base: string): Promise<CompanyEntity[]> {
    // A range on the slug index: every slug that starts with "<base>." ('/' follows '.').
    const candidates = await this.companies((companies) =>
      companies
        .createQueryBuilder('company')
        .where('company.slug > :from AND company.slug < :to', { from: `${base}.`, to: `${base}/` })
        .orderBy('company.slug')
        .take(50)
        .getMany(),
    );
    return candidates.filter((company) => !company.slug.slice(base.length + 1).includes('.'));
  }

  /** Slugs sharing the first letter of `slug` (a typo rarely hits it), to suggest one after a miss. */
  async slugsLike(slug: string, limit = 1000): Promise<string[]> {
    const rows = await this.companies((companies) =>
      companies
        .createQueryBuilder('company')
        .select('company.slug', 'slug')
        .where('company.slug >= :from AND company.slug < :to', {
          from: slug.slice(0, 1),
          to: `${slug.slice(0, 1)}\u{10FFFF}`,
        })
        .orderBy('company.slug')
        .limit(limit)
        .getRawMany<{ slug: string }>(),
    );
    return rows.map((row) => row.slug);
  }

  private companies<T>(read: (companies: Repository<CompanyEntity>) => Promise<T>): Promise<T> {
    return this.database.repository(CompanyEntity, read);
  }
}

function ordered(companies: Repository<CompanyEntity>, query: CompanyFilters & CompanyOrder) {
  const direction = query.descending ? 'DESC' : 'ASC';
  return matching(companies, query)
    .orderBy(`company.${COMPANY_SORT_COLUMNS[query.sort]}`, direction)
    .addOrderBy('company.id', direction);
}

function matching(companies: Repository<CompanyEntity>, filters: CompanyFilters) {
  const builder = companies.createQueryBuilder('company');
  if (filters.search) {
    builder.andWhere(
      "(LOWER(company.name) LIKE :pattern ESCAPE '\\' OR company.slug LIKE :pattern ESCAPE '\\')",
      { pattern: likePattern(filters.search) },
    );
  }
  if (filters.category)
    builder.andWhere('company.category = :category', { category: filters.category });
  if (filters.employees)
    builder.andWhere('company.employees = :employees', { employees: filters.employees });
  return builder;
}
