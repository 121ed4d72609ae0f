import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CompanyProfileChanged,
  CompanyRegistered,
  RegisterCompany,
  canonicalJson,
  idempotencyKey,
  streamIds,
  type CompanyProfile,
  type IngestOutcome,
} from '#app/domain';
import { RecordAppender } from '../record-appender.js';
import { metadataFor } from '../record-rules.js';

/** A company is registered once; a later record with another profile changes the profile. */
@CommandHandler(RegisterCompany)
export class RegisterCompanyHandler implements ICommandHandler<RegisterCompany, IngestOutcome> {
  constructor(private readonly appender: RecordAppender) {}

  execute({ record, origin }: RegisterCompany): Promise<IngestOutcome> {
    const profile: CompanyProfile = {
      slug: record.slug,
      name: record.name,
      category: record.category,
      employees: record.employees,
      url: record.url,
    };
    const streamId = streamIds.company(record.slug);
    return this.appender.decideAndAppend(async (streams) => {
      const history = await streams.readStream(streamId);
      const current = history.at(-1);
      if (current && canonicalJson(current.payload) === canonicalJson(profile)) return 'duplicate';
      const version = current?.streamVersion ?? 0;
      const event = current
        ? new CompanyProfileChanged(streamId, profile)
        : new CompanyRegistered(streamId, profile);
      return [
        {
          event,
          expectedVersion: version,
          idempotencyKey: idempotencyKey(record, version + 1),
          metadata: metadataFor(record, origin),
        },
      ];
    });
  }
}
