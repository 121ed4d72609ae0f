import { Injectable } from '@nestjs/common';
import { diffPricing, priceDocument, type Period, type PricingDocument } from '#app/domain';
import { PricingSnapshotReader, type PricingPageEntity } from '#app/persistence';
import { SlugResolver } from '../catalogue/slug-resolver.js';
import { ApiError } from '../errors/api-error.js';

/**
 * The reads of the pricing routes. Documents are stored as the extraction gave them; each is
 * answered with its charges' monthly equivalents, derived when read so that no stored document
 * has to be rewritten when the derivation changes.
 */
@Injectable()
export class PricingQueries {
  constructor(
    private readonly snapshots: PricingSnapshotReader,
    private readonly slugs: SlugResolver,
  ) {}

  /** The document extracted from the scrape of `version`, or the 404 that lists the versions. */
  async documentOfVersion(slug: string, version: string): Promise<string> {
    const page = await this.pageOf(slug);
    const snapshot = await this.snapshots.find(page.id, version);
    if (!snapshot) throw await this.versionNotFound(slug, page, version);
    return priced(snapshot.document);
  }

  /** The document of the latest extraction on or before `date`, or the 404 that lists them. */
  async documentAsOf(slug: string, date: string): Promise<string> {
    const page = await this.pageOf(slug);
    const snapshot = await this.snapshots.latestOnOrBefore(page.id, date);
    if (!snapshot) {
      throw await this.versionNotFound(
        slug,
        page,
        date,
        `No pricing extraction of ${slug} on or before ${date}`,
      );
    }
    return priced(snapshot.document);
  }

  /** The latest extraction's document. */
  async latestDocument(slug: string): Promise<string> {
    const page = await this.pageOf(slug);
    const latest = await this.snapshots.latest(page.id);
    if (!latest) throw await this.versionNotFound(slug, page, null);
    return priced(latest.document);
  }

  /** The document of the earliest extraction in the period, or the 404 that says there is none. */
  async documentInPeriod(slug: string, text: string, period: Period): Promise<string> {
    const page = await this.pageOf(slug);
    const snapshot = await this.snapshots.earliestInRange(page.id, period.start, period.end);
    if (snapshot) return priced(snapshot.document);
    const latest = await this.snapshots.latest(page.id);
    throw new ApiError(404, 'PERIOD_NOT_FOUND', `No pricing extraction of ${slug} in ${text}`, {
      slug,
      requested_period: text,
      message: `No pricing extraction of ${slug} between ${period.start} and ${period.end}`,
      latest_version: latest?.version ?? null,
      suggestion: latest
        ? `The latest extraction is ${latest.version}: GET /v1/api/pricing/${slug}?version=${latest.version}`
        : 'This page has no pricing extraction yet',
    });
  }

  /** Every version with an extraction, oldest first (PricingVersionsDto). */
  async versions(slug: string) {
    const page = await this.pageOf(slug);
    const versions = await this.snapshots.versions(page.id);
    return {
      slug: page.compositeSlug,
      company_slug: page.companySlug,
      page_subslug: page.pageSlug,
      versions,
      count: versions.length,
      latest_version: versions.at(-1) ?? null,
    };
  }

  /** The diff's JSON text (PricingDiffDto); `to` null means the latest extraction. */
  async diff(slug: string, from: string, to: string | null): Promise<string> {
    const page = await this.pageOf(slug);
    const [older, newer] = await Promise.all([
      this.snapshots.find(page.id, from),
      to === null ? this.snapshots.latest(page.id) : this.snapshots.find(page.id, to),
    ]);
    if (!older) throw await this.versionNotFound(slug, page, from);
    if (!newer) throw await this.versionNotFound(slug, page, to);
    const changes = diffPricing(
      JSON.parse(older.document) as PricingDocument,
      JSON.parse(newer.document) as PricingDocument,
    );
    return JSON.stringify({
      slug: page.compositeSlug,
      company_slug: page.companySlug,
      page_subslug: page.pageSlug,
      from: older.version,
      to: newer.version,
      changes,
      count: changes.length,
    });
  }

  private async pageOf(slug: string): Promise<PricingPageEntity> {
    const resolved = await this.slugs.resolvePage(slug);
    if (!resolved) throw this.slugs.unknownSlug(slug, 'pricing page');
    return resolved.page;
  }

  /** The 404 of a version (or an as_of date) without extraction; `requested` null: latest. */
  private async versionNotFound(
    slug: string,
    page: PricingPageEntity,
    requested: string | null,
    message = requested
      ? `No pricing extraction of ${slug} for version ${requested}`
      : `${slug} has no pricing extraction yet`,
  ) {
    const available = await this.snapshots.versions(page.id);
    const latest = available.at(-1) ?? null;
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

/** A stored document's JSON text as the pricing routes answer it (priceDocument). */
function priced(stored: string): string {
  return JSON.stringify(priceDocument(JSON.parse(stored) as PricingDocument).document);
}
