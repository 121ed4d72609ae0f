import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { ApiKeyGuard } from '../auth/api-key.guard.js';
import { ApiError } from '../errors/api-error.js';
import { pageReference } from './representations.js';
import { SlugResolver } from './slug-resolver.js';

@Controller('api/pages')
@UseGuards(ApiKeyGuard('read', 'pages'))
export class PagesController {
  constructor(private readonly slugs: SlugResolver) {}

  @Get(':slug')
  async one(@Param('slug') slug: string) {
    const target = await this.slugs.resolve(slug);
    const page = target ? this.slugs.singlePage(target) : null;
    if (!target || !page) {
      const suggestion = await this.slugs.suggestion(slug);
      throw new ApiError(404, 'NOT_FOUND', `No pricing page with slug ${slug}`, {
        slug,
        suggestion:
          suggestion ?? `Search for it: GET /v1/api/companies?search=${encodeURIComponent(slug)}`,
      });
    }
    return pageReference(page, target.company.name);
  }
}
