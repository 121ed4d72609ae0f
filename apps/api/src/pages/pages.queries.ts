import { Injectable } from '@nestjs/common';
import { SlugResolver } from '../catalogue/slug-resolver.js';
import { pageReference } from '../catalogue/page-reference.js';

/** The read of the pages route. */
@Injectable()
export class PagesQueries {
  constructor(private readonly slugs: SlugResolver) {}

  /** The page a slug names (docs/API.md, "Slugs"), or the 404 with a suggestion. */
  async one(slug: string) {
    const resolved = await this.slugs.resolvePage(slug);
    if (!resolved) throw await this.slugs.unknownSlugWithSuggestion(slug, 'pricing page');
    return pageReference(resolved.page, resolved.company.name);
  }
}
