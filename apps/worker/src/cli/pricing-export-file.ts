import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  exportText,
  type ExportConversion,
  type ExportFormat,
  type PricingDocument,
} from '#app/domain';
import type { FeedPosition, PricingSnapshotReader } from '#app/persistence';
import type { ProgressCounter, ProgressDisplay } from './progress-display.js';

interface PricingExportFile {
  after: FeedPosition;
  format: ExportFormat;
  output: string;
  convert?: ExportConversion;
}

/**
 * Writes every pricing extraction recorded after `after` into `output`: the reads and the text
 * of GET /v1/api/export/pricing, without its limit, streamed to the file (memory stays flat)
 * with a progress bar of extractions. The file appears whole or not at all: it is written beside
 * under another name and renamed once complete. Answers how many extractions it holds and the
 * feed position past the last.
 */
export async function writePricingExport(
  snapshots: PricingSnapshotReader,
  { after, format, output, convert }: PricingExportFile,
  display: ProgressDisplay,
): Promise<{ extractions: number; next: FeedPosition }> {
  const opened = await snapshots.openExport(after);
  const counter = display.add('exported', await opened.size(), 'extractions');
  const partial = `${output}.${randomBytes(4).toString('hex')}.partial`;
  try {
    await pipeline(
      Readable.from(exportText(format, counted(opened.documents(), counter), convert), {
        objectMode: false,
      }),
      createWriteStream(partial),
    );
    await rename(partial, output);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    display.stop();
  }
  return { extractions: counter.value, next: opened.next };
}

/** The chunks as they are, each counted once its text has been handed on to the file. */
async function* counted(
  chunks: AsyncIterable<PricingDocument[]>,
  counter: ProgressCounter,
): AsyncGenerator<PricingDocument[]> {
  for await (const chunk of chunks) {
    yield chunk;
    counter.increment(chunk.length);
  }
}
