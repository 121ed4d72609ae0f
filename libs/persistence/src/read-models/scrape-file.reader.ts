import { Injectable } from '@nestjs/common';
import { Between, In, type Repository } from 'typeorm';
import { ScrapeFileEntity } from '../entities/scrape-file.entity.js';
import { ReadDatabase } from '../replicas/read-database.js';

/** Scrape files by page and version range; served by the (page_id, version, scraper) index. */
@Injectable()
export class ScrapeFileReader {
  constructor(private readonly database: ReadDatabase) {}

  /** Files of the pages with versions in [start, end], by version, page URL, then scraper. */
  inRange(pageIds: string[], start: string, end: string): Promise<ScrapeFileEntity[]> {
    if (pageIds.length === 0) return Promise.resolve([]);
    return this.files((files) =>
      files.find({
        where: { pageId: In(pageIds), version: Between(start, end) },
        order: { version: 'ASC', pageUrl: 'ASC', scraper: 'ASC' },
      }),
    );
  }

  /** The earliest version with a file in [start, end], or null. */
  async earliestVersion(pageIds: string[], start: string, end: string): Promise<string | null> {
    if (pageIds.length === 0) return null;
    const row = await this.files((files) =>
      files
        .createQueryBuilder('file')
        .select('MIN(file.version)', 'version')
        .where('file.pageId IN (:...pageIds) AND file.version BETWEEN :start AND :end', {
          pageIds,
          start,
          end,
        })
        .getRawOne<{ version: string | null }>(),
    );
    return row?.version ?? null;
  }

  /** Every version with a file of one of the pages, oldest first. */
  async versions(pageIds: string[]): Promise<string[]> {
    if (pageIds.length === 0) return [];
    const rows = await this.files((files) =>
      files
        .createQueryBuilder('file')
        .select('DISTINCT file.version', 'version')
        .where('file.pageId IN (:...pageIds)', { pageIds })
        .orderBy('version', 'ASC')
        .getRawMany<{ version: string }>(),
    );
    return rows.map((row) => row.version);
  }

  private files<T>(read: (files: Repository<ScrapeFileEntity>) => Promise<T>): Promise<T> {
    return this.database.repository(ScrapeFileEntity, read);
  }
}
