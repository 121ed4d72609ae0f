import { Controller, Get, Header, Param, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { isPeriodClosed, parsePeriod, parseVersion } from '#app/domain';
import { PricingSnapshotReader, type PricingPageEntity } from '#app/persistence';
import type { FastifyRequest } from 'fastify';
import { ApiKeyGuard } from '../auth/api-key.guard.js';
import { ApiError } from '../errors/api-error.js';
import { ImmutableReadCache, JSON_CONTENT_TYPE } from '../http/immutable-read.cache.js';
import { markImmutable } from '../http/immutable-response.js';
import { ApiCacheableOk, ApiErrorResponses, ApiKeyAuth } from '../openapi/decorators.js';
import { CreditCost } from '../metering/credit-cost.decorator.js';
import { PAGE_SLUG_PARAMETER } from '../openapi/parameters.js';
import { PATTERNS } from '../openapi/patterns.js';
import { PricingDocumentDto } from '../openapi/pricing.dto.js';
import { periodOrThrow } from './period-parameter.js';
import { optionalText, type QueryValue } from './query-parameters.js';
import { SlugResolver } from './slug-resolver.js';

/** Pricing structure of one page: the latest version, a given version, or a period's earliest. */
@Controller('api/pricing')
@UseGuards(ApiKeyGuard('read', 'pricing'))
@ApiTags('Pricing')
@ApiKeyAuth()
@CreditCost(1)
export class PricingController {
  constructor(
    private readonly snapshots: PricingSnapshotReader,
    private readonly slugs: SlugResolver,
    private readonly immutableReads: ImmutableReadCache,
  ) {}

  @Get(':slug')
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiOperation({
    operationId: 'getPricing',
    summary: 'Pricing structure of one pricing page',
    description:
      'With neither parameter, the latest version; with version, that version; with period, ' +
      'the earliest version within the period. version and period together give 400 ' +
      'CONFLICTING_PARAMETERS. Cacheable when addressed by a version or a period that has ended.',
  })
  @ApiParam(PAGE_SLUG_PARAMETER)
  @ApiQuery({
    name: 'version',
    required: false,
    type: String,
    pattern: PATTERNS.version,
    description: 'YYYYMMDD: the extraction of that scrape version',
    example: '20251016',
  })
  @ApiQuery({
    name: 'period',
    required: false,
    type: String,
    pattern: PATTERNS.period,
    description:
      'A quarter YYYYQ#, a week YYYYW##, a month YYYYM## or YYYY## (or a version YYYYMMDD): ' +
      'the earliest extraction within it',
    example: '2025Q4',
  })
  @ApiCacheableOk(PricingDocumentDto, 'The pricing structure')
  @ApiErrorResponses('coded', [400, 401, 403, 404, 500], {
    400: {
      conflicting: {
        summary: 'version and period together',
        value: {
          error: 'Give version or period, not both',
          code: 'CONFLICTING_PARAMETERS',
          details: { provided: { version: '20251016', period: '2025Q4' } },
        },
      },
      version: {
        summary: 'Malformed version',
        value: {
          error: 'version must be a real date in YYYYMMDD form',
          code: 'INVALID_VERSION',
          details: { provided: '2025-10-16' },
        },
      },
    },
    404: {
      notFound: {
        summary: 'Unknown slug',
        value: {
          error: 'No pricing page with slug notoin',
          code: 'NOT_FOUND',
          details: { slug: 'notoin', message: 'No pricing page with slug notoin' },
        },
      },
      versionNotFound: {
        summary: 'No extraction of that version',
        value: {
          error: 'No pricing extraction of notion for version 20250101',
          code: 'VERSION_NOT_FOUND',
          details: {
            slug: 'notion',
            requested_version: '20250101',
            message: 'No pricing extraction of notion for version 20250101',
            available_versions: ['20250901', '20251016'],
            latest_version: '20251016',
            suggestion:
              'Use one of available_versions, e.g. GET /v1/api/pricing/notion?version=20251016',
          },
        },
      },
      periodNotFound: {
        summary: 'No extraction in the period',
        value: {
          error: 'No pricing extraction of notion in 2024Q1',
          code: 'PERIOD_NOT_FOUND',
          details: {
            slug: 'notion',
            requested_period: '2024Q1',
            message: 'No pricing extraction of notion between 20240101 and 20240331',
            latest_version: '20251016',
            suggestion:
              'The latest extraction is 20251016: GET /v1/api/pricing/notion?version=20251016',
          },
        },
      },
    },
  })
  async one(
    @Param('slug') slug: string,
    @Query('version') versionValue: QueryValue,
    @Query('period') periodValue: QueryValue,
    @Req() request: FastifyRequest,
  ): Promise<string> {
    const version = optionalText('version', versionValue, 20);
    const periodText = optionalText('period', periodValue, 20);
    if (version !== undefined && periodText !== undefined) {
      throw new ApiError(400, 'CONFLICTING_PARAMETERS', 'Give version or period, not both', {
        provided: { version, period: periodText },
      });
    }
    if (version !== undefined) {
      periodOrThrow(parseVersion(version), version);
      const answer = await this.immutableReads.remember(`pricing ${slug} ${version}`, async () => {
        const page = await this.pageOf(slug);
        const snapshot = await this.snapshots.find(page.id, version);
        if (!snapshot) throw await this.versionNotFound(slug, page, version);
        return snapshot.document;
      });
      markImmutable(request, answer.etag);
      return answer.json;
    }
    const page = await this.pageOf(slug);
    if (periodText !== undefined) {
      const period = periodOrThrow(parsePeriod(periodText), periodText);
      const snapshot = await this.snapshots.earliestInRange(page.id, period.start, period.end);
      if (!snapshot) {
        const latest = await this.snapshots.latest(page.id);
        throw new ApiError(
          404,
          'PERIOD_NOT_FOUND',
          `No pricing extraction of ${slug} in ${periodText}`,
          {
            slug,
            requested_period: periodText,
            message: `No pricing extraction of ${slug} between ${period.start} and ${period.end}`,
            latest_version: latest?.version ?? null,
            suggestion: latest
              ? `The latest extraction is ${latest.version}: GET /v1/api/pricing/${slug}?version=${latest.version}`
              : 'This page has no pricing extraction yet',
          },
        );
      }
      if (isPeriodClosed(period, new Date())) markImmutable(request);
      return snapshot.document;
    }
    const latest = await this.snapshots.latest(page.id);
    if (!latest) throw await this.versionNotFound(slug, page, null);
    return latest.document;
  }

  private async pageOf(slug: string): Promise<PricingPageEntity> {
    const resolved = await this.slugs.resolvePage(slug);
    if (!resolved) throw this.slugs.unknownSlug(slug, 'pricing page');
    return resolved.page;
  }

  private async versionNotFound(slug: string, page: PricingPageEntity, requested: string | null) {
    const available = await this.snapshots.versions(page.id);
    const latest = available.at(-1) ?? null;
    const message = requested
      ? `No pricing extraction of ${slug} for version ${requested}`
      : `${slug} has no pricing extraction yet`;
    return new ApiError(404, 'VERSION_NOT_FOUND', message, {
      slug,
      requested_version: requested,
      message,
      available_versions: available,
      latest_version: latest,
      suggestion: latest
        ? `Use one of available_versions, e.g. GET /v1/api/pricing/${slug}?version=${latest}`
        : 'This page has no pricing extraction yet',
    });
  }
}
