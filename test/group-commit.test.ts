import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandBus } from '@nestjs/cqrs';
import type { IngestRecord } from '#app/contracts';
import {
  CompanyProfileChanged,
  CompanyRegistered,
  DependencyMissingError,
  PricingExtracted,
  PricingPageRegistered,
  RecordConflictError,
  ScrapeCaptured,
  streamIds,
  type IngestOutcome,
} from '#app/domain';
import { TransactionRunner } from '#app/persistence';
import { commandFor } from '../apps/worker/src/ingestion/ingest.processor.js';
import { records } from './support/records.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { testEnvironment } from './support/test-environment.js';

/**
 * The worker commits the records that arrive together in one transaction (group commit). These
 * tests send several commands in one turn of the event loop, so they form one group, and check
 * that each record still gets the outcome it would get alone.
 */
const environment = testEnvironment();
let api: TestApp;
let commands: CommandBus;
let transactions: TransactionRunner;

const origin = { batchId: null, requestId: null, jobId: null };

/** Sends every record in the same turn; each settles with its outcome or its error. */
function sendTogether(batch: IngestRecord[]) {
  return Promise.allSettled(
    batch.map((record) =>
      commands.execute<ReturnType<typeof commandFor>, IngestOutcome>(commandFor(record, origin)),
    ),
  );
}

/** The events of the given streams, in log order. */
function eventsOf(...streams: string[]) {
  return transactions.query<{ stream_id: string; type: string; transaction_id: unknown }>(
    `SELECT stream_id, type, transaction_id FROM events
     WHERE stream_id IN (${streams.map((_, i) => `$${i + 1}`).join(', ')}) ORDER BY seq`,
    streams,
  );
}

beforeAll(async () => {
  api = await startTestApp(environment.config());
  commands = api.app.get(CommandBus);
  transactions = api.app.get(TransactionRunner);
});

afterAll(async () => {
  await api?.close();
  await environment.cleanup();
});

describe('group commit', () => {
  it('appends a company, its page, a scrape and an extraction sent together in reverse order', async () => {
    const outcomes = await sendTogether([
      records.pricing('reverse.io', '', '20250101'),
      records.scrape('reverse.io', '', '20250101'),
      records.page('reverse.io'),
      records.company('reverse.io'),
    ]);
    expect(outcomes.map((outcome) => outcome.status === 'fulfilled' && outcome.value)).toEqual([
      'appended',
      'appended',
      'appended',
      'appended',
    ]);
    const events = await eventsOf(
      streamIds.company('reverse.io'),
      streamIds.page('reverse.io', ''),
      streamIds.scrape('reverse.io', '', '20250101', 'scraper_1'),
      streamIds.pricing('reverse.io', '', '20250101'),
    );
    // Each round appends what the previous rounds made possible: dependencies come first.
    expect(events.map((event) => event.type)).toEqual([
      CompanyRegistered.TYPE,
      PricingPageRegistered.TYPE,
      ScrapeCaptured.TYPE,
      PricingExtracted.TYPE,
    ]);
    if (environment.dialect === 'postgres') {
      expect(new Set(events.map((event) => String(event.transaction_id))).size).toBe(1);
    }
  });

  it('fails a conflicting record and a record whose dependency is missing alone', async () => {
    await sendTogether([records.company('alone.io'), records.page('alone.io')]);
    const [scrape] = await sendTogether([records.scrape('alone.io', '', '20250101')]);
    expect(scrape).toEqual({ status: 'fulfilled', value: 'appended' });

    const outcomes = await sendTogether([
      records.scrape('alone.io', '', '20250101', { score: 3 }),
      records.scrape('alone.io', '', '20250102'),
      records.page('nobody.io'),
      records.scrape('alone.io', '', '20250101'),
    ]);
    expect(outcomes[0]?.status).toBe('rejected');
    expect((outcomes[0] as PromiseRejectedResult).reason).toBeInstanceOf(RecordConflictError);
    expect(outcomes[1]).toEqual({ status: 'fulfilled', value: 'appended' });
    expect(outcomes[2]?.status).toBe('rejected');
    expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(DependencyMissingError);
    expect(outcomes[3]).toEqual({ status: 'fulfilled', value: 'duplicate' });
    const scrapes = await eventsOf(
      streamIds.scrape('alone.io', '', '20250101', 'scraper_1'),
      streamIds.scrape('alone.io', '', '20250102', 'scraper_1'),
    );
    expect(scrapes).toHaveLength(2);
  });

  it('decides two records of one stream one after the other', async () => {
    const outcomes = await sendTogether([
      records.company('twice.io'),
      records.company('twice.io', { name: 'Twice Renamed' }),
      records.company('twice.io', { name: 'Twice Renamed' }),
    ]);
    const values = outcomes.map((outcome) => outcome.status === 'fulfilled' && outcome.value);
    // The first registers, the renaming changes the profile once, and its copy is a duplicate.
    expect(values.filter((value) => value === 'appended')).toHaveLength(2);
    expect(values.filter((value) => value === 'duplicate')).toHaveLength(1);
    const events = await eventsOf(streamIds.company('twice.io'));
    expect(events.map((event) => event.type)).toEqual([
      CompanyRegistered.TYPE,
      CompanyProfileChanged.TYPE,
    ]);
  });
});
