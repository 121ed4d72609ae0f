import { Injectable } from '@nestjs/common';
import {
  diffPricing,
  priceDocument,
  pricingAnswer,
  seriesPlan,
  type Period,
  type PricingDocument,
  type SeriesStep,
} from '#app/domain';
import { PricingSnapshotReader, type PricingPageEntity } from '#app/persistence';
import { SlugResolver } from '../catalogue/slug-resolver.js';
import { ConversionTargets } from '../currency/conversion-targets.js';
import { ApiError } from '../errors/api-error.js';
import { seriesDatesWithin } from '../http/series-range.js';

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
    private readonly conversions: ConversionTargets,
  ) {}

  /** The document extracted from the scrape of `version`, or the 404 that lists the versions. */
  async documentOfVersion(slug: string, version: string, currency?: string): Promise<string> {
    const page = await this.pageOf(slug);
    const snapshot = await this.snapshots.find(page.id, version);
    if (!snapshot) throw await this.versionNotFound(slug, page, version);
    return this.answer(snapshot.document, currency);
  }

  /** The document of the latest extraction on or before `date`, or the 404 that lists them. */
  async documentAsOf(slug: string, date: string, currency?: string): Promise<string> {
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
    return this.answer(snapshot.document, currency);
  }

  /** The latest extraction's document. */
  async latestDocument(slug: string, currency?: string): Promise<string> {
    const page = await this.pageOf(slug);
    const latest = await this.snapshots.latest(page.id);
    if (!latest) throw await this.versionNotFound(slug, page, null);
    return this.answer(latest.document, currency);
  }

  /** The document of the earliest extraction in the period, or the 404 that says there is none. */
  async documentInPeriod(
    slug: string,
    text: string,
    period: Period,
    currency?: string,
  ): Promise<string> {
    const page = await this.pageOf(slug);
    const snapshot = await this.snapshots.earliestInRange(page.id, period.start, period.end);
    if (snapshot) return this.answer(snapshot.document, currency);
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

  /**
   * The pricing in force at the start of each step (PricingSeriesDto). `from` defaults to the
   * first extraction (or `to`, when there is none on or before it).
   */
  async series(
    slug: string,
    asked: { step: SeriesStep; from?: string; to: string; currency?: string },
  ) {
    const { step, to, currency } = asked;
    const page = await this.pageOf(slug);
    const versions = await this.snapshots.versions(page.id);
    const first = versions[0];
    const from = asked.from ?? (first !== undefined && first < to ? first : to);
    const dates = seriesDatesWithin(step, from, to);
    // Both lists are ascending: the version in force moves forward with the dates.
    let next = 0;
    const inForce = dates.map((date) => {
      while (next < versions.length && versions[next]! <= date) next++;
      return next === 0 ? null : versions[next - 1]!;
    });
    const wanted = [...new Set(inForce.filter((version) => version !== null))];
    const stored = (await this.snapshots.ofVersions(page.id, wanted)).map(
      (snapshot) => JSON.parse(snapshot.document) as PricingDocument,
    );
    const target =
      currency === undefined ? undefined : await this.conversions.forDocuments(currency, stored);
    const documents = new Map(
      stored.map((document) => [document.version, priceDocument(document, target)] as const),
    );
    let unconverted = 0;
    const points = dates.map((date, index) => {
      const priced = documents.get(inForce[index]!);
      if (!priced) return { date, version: null, plans: [] };
      unconverted += priced.unconverted;
      return {
        date,
        version: priced.document.version,
        plans: priced.document.plans.map(seriesPlan),
      };
    });
    return {
      slug: page.compositeSlug,
      step,
      from,
      to,
      ...(target ? { currency: target.currency, unconverted } : {}),
      points,
    };
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

  /** A stored document's JSON text as the pricing route answers it (pricingAnswer). */
  private async answer(stored: string, currency: string | undefined): Promise<string> {
    const document = JSON.parse(stored) as PricingDocument;
    const target =
      currency === undefined
        ? undefined
        : await this.conversions.forDocuments(currency, [document]);
    return JSON.stringify(pricingAnswer(document, target));
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
