import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  PricingPageRegistered,
  RecordConflictError,
  RegisterPricingPage,
  compositePageSlug,
  deterministicIds,
  streamIds,
  type IngestOutcome,
  type PricingPageRegisteredPayload,
} from '#app/domain';
import { RecordAppender } from '../record-appender.js';
import {
  duplicateOrConflict,
  firstEventOf,
  pageRegistration,
  requireCompany,
} from '../record-rules.js';

/**
 * A page's stream is named by its composite slug, so two pages that would share one
 * (`notion.so` and `notion.com`, both `notion`) cannot both be registered.
 */
@CommandHandler(RegisterPricingPage)
export class RegisterPricingPageHandler implements ICommandHandler<
  RegisterPricingPage,
  IngestOutcome
> {
  constructor(private readonly appender: RecordAppender) {}

  execute({ record, origin }: RegisterPricingPage): Promise<IngestOutcome> {
    const streamId = streamIds.page(record.company_slug, record.page_slug);
    const compositeSlug = compositePageSlug(record.company_slug, record.page_slug);
    return this.appender.decideAndAppend(async (streams) => {
      await requireCompany(streams, record.company_slug);
      const [existing] = await streams.readStream(streamId);
      if (existing) {
        const claimedBy = pageRegistration(existing);
        if (
          claimedBy &&
          (claimedBy.company_slug !== record.company_slug ||
            claimedBy.page_slug !== record.page_slug)
        ) {
          throw new RecordConflictError(
            `composite slug ${compositeSlug} of page ${record.company_slug}/${record.page_slug} is ` +
              `already used by page ${claimedBy.company_slug}/${claimedBy.page_slug}`,
          );
        }
        return duplicateOrConflict(record, existing);
      }
      const payload: PricingPageRegisteredPayload = {
        page_id: deterministicIds.page(record.company_slug, record.page_slug),
        company_slug: record.company_slug,
        page_slug: record.page_slug,
        composite_slug: compositeSlug,
        pricing_page_url: record.pricing_page_url,
      };
      return firstEventOf(record, origin, new PricingPageRegistered(streamId, payload));
    });
  }
}
