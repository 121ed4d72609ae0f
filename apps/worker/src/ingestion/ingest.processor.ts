import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AppConfig } from '#app/config';
import {
  CheckedRecordSeal,
  recordProblems,
  type IngestJobData,
  type IngestJobResult,
} from '#app/contracts';
import {
  CaptureScrape,
  DependencyMissingError,
  ExtractPricing,
  RecordConflictError,
  RecordExchangeRate,
  RegisterCompany,
  RegisterPricingPage,
  type CommandOrigin,
  type IngestOutcome,
  type IngestRecord,
} from '#app/domain';
import { UnrecoverableError, type Job } from 'bullmq';

/** The command that applies a record. */
export function commandFor(record: IngestRecord, origin: CommandOrigin) {
  switch (record.type) {
    case 'company':
      return new RegisterCompany(record, origin);
    case 'page':
      return new RegisterPricingPage(record, origin);
    case 'scrape':
      return new CaptureScrape(record, origin);
    case 'pricing':
      return new ExtractPricing(record, origin);
    case 'exchange_rate':
      return new RecordExchangeRate(record, origin);
    default:
      return record satisfies never;
  }
}

/**
 * Turns a job into its command. Its only decisions are BullMQ's: which failures are final
 * (an invalid record, a conflict) and which are worth the queue's backoff (a missing company,
 * page or scrape). A database that is down is the worker host's to handle: no attempt is spent.
 */
@Injectable()
export class IngestProcessor {
  private readonly logger = new Logger(IngestProcessor.name);

  constructor(
    private readonly commandBus: CommandBus,
    private readonly config: AppConfig,
    private readonly seal: CheckedRecordSeal,
  ) {}

  async process(job: Job<IngestJobData, IngestJobResult>): Promise<IngestJobResult> {
    const { record, batchId, requestId } = job.data;
    // Pipelines may add jobs without the API: every record whose check the API's mark does not
    // vouch for is checked here.
    if (!this.seal.holds(job.id, job.data)) {
      const problems = await recordProblems(record, this.config.ingest.scrapers);
      if (problems.length > 0) {
        throw new UnrecoverableError(`invalid record: ${problems.join('; ')}`);
      }
    }
    const origin: CommandOrigin = { batchId, requestId, jobId: job.id ?? null };
    try {
      const outcome = await this.commandBus.execute<ReturnType<typeof commandFor>, IngestOutcome>(
        commandFor(record, origin),
      );
      this.logger.debug(`job ${job.id} (batch ${batchId ?? '-'}): ${outcome}`);
      return { outcome };
    } catch (error) {
      if (error instanceof RecordConflictError) throw new UnrecoverableError(error.message);
      const attempts = job.opts.attempts ?? 1;
      if (error instanceof DependencyMissingError && job.attemptsMade + 1 >= attempts) {
        throw new Error(`${error.message}; gave up after ${attempts} attempts`);
      }
      throw error;
    }
  }
}
