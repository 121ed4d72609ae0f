import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UndecodableEventError } from '../errors/undecodable-event.error.js';
import { type FieldsDeclaration } from '../record-fields.js';
import { RECORD_FIELDS, type RecordType } from '../records.js';
import type { RecordedEvent } from './domain-event.js';
import {
  EVENT_CLASSES,
  decodeEvent,
  eventDecoder,
  upcaster,
  type DecodedEvent,
  type EventPayload,
  type EventType,
} from './event-registry.js';
import { ScrapeCaptured } from './scrape-captured.event.js';

/**
 * Rows of the events table exactly as the code of 0b96995 wrote them (SQLite): a company
 * registered and its profile changed, two pages, two scrapes (one with every nullable field
 * null), two extractions (one with an optional field left out, a free-form value and a charge
 * without a metric), ingested through the API and the worker; then an exchange rate, as the code
 * that introduced the type wrote it (numbered after them). Never edit them: they stand for the
 * logs in service, which decodeEvent must read for as long as they exist. A new event type adds
 * its row.
 */
interface StoredRow {
  seq: number;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  payload: string;
  metadata: string;
  recorded_at: string;
}

const STORED_V1 = JSON.parse(
  readFileSync(new URL('./fixtures/events-v1.json', import.meta.url), 'utf8'),
) as StoredRow[];

/** A row as the event store reads it (toRecordedEvent in libs/persistence). */
function recorded(row: StoredRow): RecordedEvent {
  return {
    seq: row.seq,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    schemaVersion: row.schema_version,
    payload: JSON.parse(row.payload) as unknown,
    metadata: JSON.parse(row.metadata) as RecordedEvent['metadata'],
    recordedAt: row.recorded_at,
  };
}

const storedAt = (seq: number) => recorded(STORED_V1.find((row) => row.seq === seq)!);

/**
 * The payload each stored event decodes to, written as the current payload types: a required
 * field added to a payload makes this file fail to compile, and the stored events, which lack
 * it, fail the test until an upcaster supplies it.
 */
const DECODED_PAYLOADS: { [T in EventType]: { seq: number; payload: EventPayload<T> } } = {
  'company.registered.v1': {
    seq: 1,
    payload: {
      slug: 'acme.io',
      name: 'Company acme.io',
      category: 'Productivity',
      employees: '51-200',
      url: 'https://acme.io',
    },
  },
  'company.profile-changed.v1': {
    seq: 6,
    payload: {
      slug: 'acme.io',
      name: 'Acme Inc',
      category: 'Productivity',
      employees: '201-500',
      url: 'https://acme.io',
    },
  },
  'pricing-page.registered.v1': {
    seq: 3,
    payload: {
      page_id: 'c662d139-39f8-57c6-8b93-ed4b3b4d26ae',
      company_slug: 'acme.io',
      page_slug: 'team',
      composite_slug: 'acme.team',
      pricing_page_url: 'https://acme.io/pricing/team',
    },
  },
  'scrape.captured.v1': {
    seq: 5,
    payload: {
      scrape_id: '5c66ba59-cd97-5fdb-b193-d6b0e5c94727',
      page_id: 'c662d139-39f8-57c6-8b93-ed4b3b4d26ae',
      company_slug: 'acme.io',
      page_slug: 'team',
      version: '20250105',
      scraper: 'scraper_2',
      page_url: 'https://acme.io/pricing',
      screenshot_url: null,
      markdown_url: null,
      html_url: 'https://cdn.example.com/acme.io/20250105/team.html',
      ocr_url: 'https://cdn.example.com/acme.io/20250105/team.txt',
      valid: null,
      score: null,
      banner_free: null,
    },
  },
  'pricing.extracted.v1': {
    seq: 8,
    payload: {
      snapshot_id: '3999b90a-df09-5cd2-95f3-9df58345e88a',
      page_id: 'c662d139-39f8-57c6-8b93-ed4b3b4d26ae',
      company_slug: 'acme.io',
      page_slug: 'team',
      composite_slug: 'acme.team',
      version: '20250105',
      scrape: {
        id: '5c66ba59-cd97-5fdb-b193-d6b0e5c94727',
        scraper: 'scraper_2',
        version: '20250105',
        page_url: 'https://acme.io/pricing',
        captured_at: '2026-11-27T08:41:10.513Z',
      },
      plans: [
        {
          display_name: 'Team',
          internal_name: 'team',
          add_on: true,
          charges: [
            {
              billing: 'usage_based',
              currency: 'EUR',
              price: null,
              charge_type: 'usage',
              pricing_metric: null,
              display_name: 'Seats',
              included_quantity: { seats: 5, note: ['first', 'five'] },
              overage_info: 'billed monthly',
            },
            {
              billing: 'one_time',
              currency: 'EUR',
              price: 0.5,
              charge_type: 'flat',
              pricing_metric: { display_name: 'per project', modality: 'project_based' },
              usage_type: null,
              display_name: 'Setup',
              price_display: null,
            },
          ],
          discounts: [],
        },
      ],
    },
  },
  'exchange-rate.recorded.v1': {
    seq: 9,
    payload: { date: '20250105', base: 'EUR', quote: 'USD', rate: 1.0842 },
  },
};

/**
 * The record type whose declared fields each payload carries (RECORD_FIELDS): an extraction
 * carries the scrape it was made from in place of the scraper its record may name.
 */
const CARRIES: { [T in EventType]: { record: RecordType; except?: string } } = {
  'company.registered.v1': { record: 'company' },
  'company.profile-changed.v1': { record: 'company' },
  'pricing-page.registered.v1': { record: 'page' },
  'scrape.captured.v1': { record: 'scrape' },
  'pricing.extracted.v1': { record: 'pricing', except: 'scraper' },
  'exchange-rate.recorded.v1': { record: 'exchange_rate' },
};

/** The declared fields `value` lacks or holds null against its declaration, at any depth. */
function declarationGaps(fields: FieldsDeclaration, value: unknown, path = ''): string[] {
  const object = value as Record<string, unknown>;
  return Object.entries(fields).flatMap(([name, field]) => {
    const at = path ? `${path}.${name}` : name;
    if (!(name in object)) return field.optional ? [] : [`${at} is missing`];
    const inner = object[name];
    if (inner === null) return field.nullable ? [] : [`${at} is null`];
    if (field.kind === 'list' && Array.isArray(inner)) {
      return inner.flatMap((item, index) => declarationGaps(field.items, item, `${at}.${index}`));
    }
    return field.kind === 'object' ? declarationGaps(field.fields, inner, at) : [];
  });
}

describe('decodeEvent', () => {
  it('decodes every stored event to a payload with every field its record type declares', () => {
    // A required field added to a record type fails here until an upcaster supplies it to the
    // events stored before it existed (and a new SCHEMA_VERSION says which those are).
    const gaps = STORED_V1.flatMap((row) => {
      const event = decodeEvent(recorded(row));
      const { record, except } = CARRIES[event.type];
      const { [except ?? '']: _left, ...fields } = RECORD_FIELDS[record] as FieldsDeclaration;
      return declarationGaps(fields, event.payload).map((gap) => `event ${row.seq}: ${gap}`);
    });
    expect(gaps).toEqual([]);
  });

  it('decodes every event type, as the log holds it at version 1, to its current payload', () => {
    const types = Object.keys(EVENT_CLASSES) as EventType[];
    expect(new Set(STORED_V1.map((row) => row.type))).toEqual(new Set(types));
    for (const type of types) {
      const { seq, payload } = DECODED_PAYLOADS[type];
      const event = storedAt(seq);
      expect(event.type).toBe(type);
      expect(decodeEvent(event)).toEqual({
        ...event,
        schemaVersion: EVENT_CLASSES[type].SCHEMA_VERSION,
        payload,
      });
    }
  });

  it('answers an event at the current version as it is, without a copy', () => {
    for (const row of STORED_V1) {
      const event = recorded(row);
      expect(decodeEvent(event)).toBe(event);
    }
  });

  it('tells the types apart, so a payload needs no cast', () => {
    const told = STORED_V1.map(recorded)
      .map(decodeEvent)
      .map((event: DecodedEvent) => {
        switch (event.type) {
          case 'company.registered.v1':
          case 'company.profile-changed.v1':
            return event.payload.url;
          case 'pricing-page.registered.v1':
            return event.payload.pricing_page_url;
          case 'scrape.captured.v1':
            return event.payload.page_url;
          case 'pricing.extracted.v1':
            return event.payload.scrape.page_url;
          case 'exchange-rate.recorded.v1':
            return `${event.payload.base}/${event.payload.quote}`;
        }
      });
    expect(told).toEqual([
      'https://acme.io',
      'https://acme.io/pricing',
      'https://acme.io/pricing/team',
      'https://acme.io/pricing',
      'https://acme.io/pricing',
      'https://acme.io',
      'https://acme.io/pricing',
      'https://acme.io/pricing',
      'EUR/USD',
    ]);
  });

  it('refuses a type it does not know', () => {
    const event = { ...storedAt(1), type: 'company.merged.v1' };
    expect(() => decodeEvent(event)).toThrow(UndecodableEventError);
    expect(() => decodeEvent(event)).toThrow(
      'event 1 (company.merged.v1, schema version 1) cannot be decoded: no event type of that name is registered',
    );
    // Nor a name every object inherits.
    expect(() => decodeEvent({ ...event, type: 'constructor' })).toThrow(UndecodableEventError);
  });

  it('refuses a version it has no upcasters from: older, newer, or not a version at all', () => {
    for (const schemaVersion of [0, 2, 1.5, Number.NaN]) {
      const event = { ...storedAt(4), schemaVersion };
      let thrown: unknown;
      try {
        decodeEvent(event);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(UndecodableEventError);
      expect((thrown as UndecodableEventError).reason).toBe('unknown-version');
    }
  });
});

describe('upcasting, on a registry where scrape.captured.v1 has moved on to version 3', () => {
  // Version 2 renamed page_url to url; version 3 added the url's host.
  type V1 = { page_url: string } & Record<string, unknown>;
  type V2 = { url: string } & Record<string, unknown>;
  const decode = eventDecoder({
    classes: { ...EVENT_CLASSES, [ScrapeCaptured.TYPE]: { SCHEMA_VERSION: 3 } },
    upcasters: {
      [ScrapeCaptured.TYPE]: {
        1: upcaster(({ page_url, ...rest }: V1) => ({ ...rest, url: page_url })),
        2: upcaster((v2: V2) => ({ ...v2, host: new URL(v2.url).host })),
      },
    },
  });

  it('upcasts a stored version 1 step by step to the current version', () => {
    const stored = storedAt(4);
    const { page_url, ...unchanged } = stored.payload as V1;
    expect(decode(stored)).toEqual({
      ...stored,
      schemaVersion: 3,
      payload: { ...unchanged, url: page_url, host: 'acme.io' },
    });
  });

  it('upcasts an event once, however many times it is decoded', () => {
    const stored = storedAt(4);
    expect(decode(stored)).toBe(decode(stored));
  });

  it('leaves the event it was given as it was', () => {
    const stored = storedAt(4);
    const before = structuredClone(stored);
    decode(stored);
    expect(stored).toEqual(before);
  });

  it('starts from the stored version, and reads the current one as it is', () => {
    const v2 = { ...storedAt(4), schemaVersion: 2, payload: { url: 'https://x.io/pricing' } };
    expect(decode(v2).payload).toEqual({ url: 'https://x.io/pricing', host: 'x.io' });
    const v3 = { ...v2, schemaVersion: 3 };
    expect(decode(v3)).toBe(v3);
  });

  it('leaves the other types at their own version', () => {
    const company = storedAt(1);
    expect(decode(company)).toBe(company);
  });
});
