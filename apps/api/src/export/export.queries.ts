import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { exportText, type ExportFormat, type PricingDocument } from '#app/domain';
import { encodeCursor, PricingSnapshotReader, type FeedPosition } from '#app/persistence';
import { ConversionTargets } from '../currency/conversion-targets.js';

/** What an export call asks for: where to start, how many extractions at most, how written. */
interface ExportRead {
  after: FeedPosition;
  limit: number;
  format: ExportFormat;
  /** A currency to convert into. */
  currency: string | undefined;
}

/** The read of the export route. */
@Injectable()
export class ExportQueries {
  constructor(
    private readonly snapshots: PricingSnapshotReader,
    private readonly conversions: ConversionTargets,
  ) {}

  /** The export's text as a stream, and the cursor past its last extraction. */
  async pricing({
    after,
    limit,
    format,
    currency,
  }: ExportRead): Promise<{ next: string; body: Readable }> {
    const opened = await this.snapshots.openExport(after, limit);
    const convert =
      currency === undefined
        ? undefined
        : (documents: PricingDocument[]) => this.conversions.forDocuments(currency, documents);
    return {
      next: encodeCursor(opened.next),
      body: await started(exportText(format, opened.documents(), convert)),
    };
  }
}

/**
 * The text as a byte stream that reads a part only when the reply has room for it, its first
 * part already read: a failure to start (the database away) is thrown here, before any byte
 * goes out, and answered as the documented error. One later can only cut the answer short,
 * which a client sees as a chunked body that never ends properly.
 */
async function started(text: AsyncGenerator<string>): Promise<Readable> {
  const first = await text.next();
  async function* all() {
    if (first.done) return;
    yield first.value;
    yield* text;
  }
  return Readable.from(all(), { objectMode: false });
}
