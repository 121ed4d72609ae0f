import { UndecodableEventError } from '../errors/undecodable-event.error.js';
import { CompanyProfileChanged } from './company-profile-changed.event.js';
import { CompanyRegistered } from './company-registered.event.js';
import type { RecordedEvent } from './domain-event.js';
import { ExchangeRateRecorded } from './exchange-rate-recorded.event.js';
import { PricingExtracted } from './pricing-extracted.event.js';
import { PricingPageRegistered } from './pricing-page-registered.event.js';
import { ScrapeCaptured } from './scrape-captured.event.js';

/**
 * Every event type the log holds, by its stored type string, with the class that appends it:
 * the class's SCHEMA_VERSION is the current version of the payload, its `payload` the payload's
 * type. An event missing here can be neither appended (PendingAppend takes RegisteredEvent) nor
 * read (decodeEvent refuses it).
 */
export const EVENT_CLASSES = {
  [CompanyRegistered.TYPE]: CompanyRegistered,
  [CompanyProfileChanged.TYPE]: CompanyProfileChanged,
  [PricingPageRegistered.TYPE]: PricingPageRegistered,
  [ScrapeCaptured.TYPE]: ScrapeCaptured,
  [PricingExtracted.TYPE]: PricingExtracted,
  [ExchangeRateRecorded.TYPE]: ExchangeRateRecorded,
} as const;

export type EventType = keyof typeof EVENT_CLASSES;

/** An event about to be appended: an instance of a registered class. */
export type RegisteredEvent = InstanceType<(typeof EVENT_CLASSES)[EventType]>;

/** The current payload of an event type. */
export type EventPayload<T extends EventType> = InstanceType<(typeof EVENT_CLASSES)[T]>['payload'];

/** An event read from the log with its payload at the current version, told apart by `type`. */
export type DecodedEvent = {
  [T in EventType]: RecordedEvent<EventPayload<T>> & { readonly type: T };
}[EventType];

/** The decoded event of one type. */
export type DecodedEventOf<T extends EventType> = Extract<DecodedEvent, { type: T }>;

/**
 * Turns a payload stored at one schema version into the next version's. It is given the JSON
 * the log holds and returns a new value: the stored payload is never changed in place.
 */
type Upcaster = (payload: unknown) => unknown;

/** For each event type, the upcaster from each old schema version to the next. */
type UpcasterTable = {
  readonly [type: string]: { readonly [from: number]: Upcaster | undefined } | undefined;
};

/** An upcaster from a payload of the shape `From` (as stored at its version) to the next shape. */
export const upcaster = <From, To>(step: (payload: From) => To): Upcaster => step as Upcaster;

/**
 * The upcasters of the registered events. Empty while every event type is at version 1: a new
 * payload shape bumps its class's SCHEMA_VERSION and adds the step from the version before here,
 * with a fixture of the old version in events/fixtures.
 */
const UPCASTERS: { readonly [T in EventType]?: UpcasterTable[string] } = {};

/** Where decodeEvent finds each type's current version and the steps that lead to it. */
interface EventRegistry {
  classes: { readonly [type: string]: { readonly SCHEMA_VERSION: number } };
  upcasters: UpcasterTable;
}

/**
 * A decoder over `registry`. An event at the current version is answered as it is (no copy: this
 * runs for every event the projections and the ingestion read); an older one is upcast step by
 * step into a new event, once however many projectors decode it. The payload is trusted to be
 * what the registered class wrote at its version: the log only takes records that passed
 * validation.
 */
export function eventDecoder(registry: EventRegistry): (recorded: RecordedEvent) => DecodedEvent {
  const { classes, upcasters } = registry;
  const upcast = new WeakMap<RecordedEvent, DecodedEvent>();
  return (recorded) => {
    const current = Object.hasOwn(classes, recorded.type)
      ? classes[recorded.type]?.SCHEMA_VERSION
      : undefined;
    if (current === undefined) {
      throw new UndecodableEventError(
        recorded,
        'unknown-type',
        'no event type of that name is registered',
      );
    }
    if (recorded.schemaVersion === current) return recorded as DecodedEvent;
    let decoded = upcast.get(recorded);
    if (!decoded) {
      let payload = recorded.payload;
      for (let version = recorded.schemaVersion; version !== current; version += 1) {
        const step = version < current ? upcasters[recorded.type]?.[version] : undefined;
        if (!step) {
          throw new UndecodableEventError(
            recorded,
            'unknown-version',
            `no upcaster from schema version ${version} (the current version is ${current})`,
          );
        }
        payload = step(payload);
      }
      decoded = { ...recorded, schemaVersion: current, payload } as DecodedEvent;
      upcast.set(recorded, decoded);
    }
    return decoded;
  };
}

/**
 * The default of a switch over every event type: a compile error while a type has no case.
 * (decodeEvent lets no other type through.)
 */
export function unhandledEvent(event: never): never {
  throw new Error(`no case for event type ${(event as RecordedEvent).type}`);
}

/** An event of the log, typed by its type and upcast to its current schema version. */
export const decodeEvent = eventDecoder({ classes: EVENT_CLASSES, upcasters: UPCASTERS });
