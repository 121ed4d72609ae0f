// class-transformer reads decorator metadata when this module loads, whoever imports it.
import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  Equals,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateBy,
  buildMessage,
  ValidateIf,
  ValidateNested,
  validate,
  type ValidationError,
  type ValidatorOptions,
} from 'class-validator';
import {
  CATEGORIES,
  COMPANY_SLUG,
  MAX_JSON_DEPTH,
  OPEN_IDENTIFIER,
  PAGE_SLUG,
  RECORD_BOUNDS,
  employeeBandLowerBound,
  isValidVersion,
  recordClasses,
  type ChargeInput,
  type CompanyRecord,
  type DiscountInput,
  type ExchangeRateRecord,
  type FieldBounds,
  type IngestRecord,
  type PageRecord,
  type PlanInput,
  type PricingMetricInput,
  type PricingRecord,
  type ScrapeRecord,
  RECORD_TYPES,
  VALUE_PATTERNS,
} from '#app/domain';

const HTTP_URL = /^https?:\/\/[^\s]+$/;
// The API's own patterns (its OpenAPI document states them): a record's values are the ones it
// answers with. A version of that shape that is no calendar date is told apart (domainProblems).
const VERSION_PATTERN = new RegExp(VALUE_PATTERNS.version);
const CURRENCY_PATTERN = new RegExp(VALUE_PATTERNS.currency);
const EMPLOYEES_PATTERN = new RegExp(VALUE_PATTERNS.employees);
const { company, page, scrape, pricing, exchange_rate } = RECORD_BOUNDS;
const plan = pricing.plans.items;
const charge = plan.charges.items;
const discount = plan.discounts.items;

/**
 * A text's length in UTF-16 code units, which never counts fewer characters than PostgreSQL
 * does. (class-validator's MinLength and MaxLength count code points and skip variation
 * selectors: `a` followed by 300 U+FE0F is one character to them and overflows a varchar(255).)
 */
const TextLength = (min: number, max: number) =>
  ValidateBy({
    name: 'textLength',
    validator: {
      validate: (value) =>
        typeof value !== 'string' || (value.length >= min && value.length <= max),
      defaultMessage: buildMessage((each) =>
        min > 0
          ? `${each}$property must be ${min} to ${max} characters long`
          : `${each}$property must be at most ${max} characters long`,
      ),
    },
  });

/** Each number of a size band (`N+`, `N-M`) at most `max`. */
const BandBoundsAtMost = (max: number) =>
  ValidateBy({
    name: 'bandBoundsAtMost',
    validator: {
      validate: (value) =>
        typeof value !== 'string' || (value.match(/\d+/g) ?? []).every((n) => Number(n) <= max),
      defaultMessage: buildMessage((each) => `${each}$property band bounds must be at most ${max}`),
    },
  });

/** A free-form value whose JSON text is at most `max` characters long. */
const JsonLengthAtMost = (max: number) =>
  ValidateBy({
    name: 'jsonLengthAtMost',
    validator: {
      validate: (value) => value === undefined || JSON.stringify(value).length <= max,
      defaultMessage: buildMessage(
        (each) => `${each}$property must be at most ${max} characters long as JSON`,
      ),
    },
  });

/** A bound of a number that leaves any other value to IsNumber's one reason (Max gives two). */
const NumberBound = (name: string, holds: (value: number) => boolean, rule: string) =>
  ValidateBy({
    name,
    validator: {
      validate: (value) => typeof value !== 'number' || holds(value),
      defaultMessage: buildMessage((each) => `${each}$property must ${rule}`),
    },
  });

/** The checks of a field's declared bounds (libs/domain, RECORD_BOUNDS); its syntax is checked apart. */
function Bounded(bounds: FieldBounds): PropertyDecorator {
  const decorators = boundsChecks(bounds);
  return (target, property) => {
    for (const decorate of decorators) decorate(target, property);
  };
}

function boundsChecks(bounds: FieldBounds): PropertyDecorator[] {
  switch (bounds.kind) {
    case 'text':
      return [TextLength(bounds.minLength, bounds.maxLength)];
    case 'url':
    case 'company-slug':
    case 'page-slug':
    case 'identifier':
    case 'scraper':
      return [TextLength(0, bounds.maxLength)];
    case 'employees':
      return [TextLength(0, bounds.maxLength), BandBoundsAtMost(bounds.maxBound)];
    case 'integer':
      return [Min(bounds.minimum), Max(bounds.maximum)];
    case 'number': {
      const { minimum, exclusiveMinimum: above, maximum } = bounds;
      const checks = minimum === null ? [] : [Min(minimum)];
      if (above !== undefined) {
        checks.push(
          NumberBound('greaterThan', (value) => value > above, `be greater than ${above}`),
        );
      }
      if (maximum !== undefined) {
        checks.push(
          NumberBound('atMost', (value) => value <= maximum, `not be greater than ${maximum}`),
        );
      }
      return checks;
    }
    case 'free-form':
      return [JsonLengthAtMost(bounds.maxJsonLength)];
    case 'list':
      return [ArrayMaxSize(bounds.maxItems)];
    case 'object':
      return [];
  }
}

class CompanyRecordInput implements CompanyRecord {
  @Equals('company') type!: 'company';
  @Matches(COMPANY_SLUG, { message: 'slug must be lower-case labels separated by dots' })
  @Bounded(company.slug)
  slug!: string;
  @IsString() @Bounded(company.name) name!: string;
  @IsIn(CATEGORIES, { message: `category must be one of: ${CATEGORIES.join(', ')}` })
  category!: string;
  @Matches(EMPLOYEES_PATTERN, { message: 'employees must be a band such as 1000+ or 51-200' })
  @Bounded(company.employees)
  employees!: string;
  @Matches(HTTP_URL, { message: 'url must be an http(s) URL' }) @Bounded(company.url) url!: string;
}

/** The fields that name a pricing page, shared by every record about one. */
class PageKeyInput {
  @Matches(COMPANY_SLUG, { message: 'company_slug must be a company slug' })
  @Bounded(page.company_slug)
  company_slug!: string;
  @IsString()
  @Matches(PAGE_SLUG, { message: 'page_slug must be one lower-case label or empty' })
  @Bounded(page.page_slug)
  page_slug!: string;
}

/** A page and a scrape version: the key of scrapes and extractions. */
class PageVersionKeyInput extends PageKeyInput {
  @Matches(VERSION_PATTERN, { message: 'version must be YYYYMMDD' }) version!: string;
}

class PageRecordInput extends PageKeyInput implements PageRecord {
  @Equals('page') type!: 'page';
  @Matches(HTTP_URL, { message: 'pricing_page_url must be an http(s) URL' })
  @Bounded(page.pricing_page_url)
  pricing_page_url!: string;
}

const nullableUrl = (field: string) =>
  Matches(HTTP_URL, { message: `${field} must be an http(s) URL or null` });

class ScrapeRecordInput extends PageVersionKeyInput implements ScrapeRecord {
  @Equals('scrape') type!: 'scrape';
  @Matches(HTTP_URL, { message: 'page_url must be an http(s) URL' })
  @Bounded(scrape.page_url)
  page_url!: string;
  @ValidateIf((_, v) => v !== null)
  @nullableUrl('screenshot_url')
  @Bounded(scrape.screenshot_url)
  screenshot_url!: string | null;
  @ValidateIf((_, v) => v !== null)
  @nullableUrl('markdown_url')
  @Bounded(scrape.markdown_url)
  markdown_url!: string | null;
  @ValidateIf((_, v) => v !== null) @nullableUrl('html_url') @Bounded(scrape.html_url) html_url!:
    string | null;
  @ValidateIf((_, v) => v !== null) @nullableUrl('ocr_url') @Bounded(scrape.ocr_url) ocr_url!:
    string | null;
  @IsString() @Bounded(scrape.scraper) scraper!: string;
  @ValidateIf((_, v) => v !== null)
  @IsBoolean({ message: 'valid must be a boolean or null' })
  valid!: boolean | null;
  @ValidateIf((_, v) => v !== null) @IsInt() @Bounded(scrape.score) score!: number | null;
  @ValidateIf((_, v) => v !== null)
  @IsBoolean({ message: 'banner_free must be a boolean or null' })
  banner_free!: boolean | null;
}

const currencyCode = (field: string) =>
  Matches(CURRENCY_PATTERN, { message: `${field} must be a three-letter ISO 4217 code` });

const identifier = (field: string) =>
  Matches(OPEN_IDENTIFIER, { message: `${field} must be a lower-case identifier` });

class PricingMetricInputDto implements PricingMetricInput {
  @IsString() @Bounded(charge.pricing_metric.fields.display_name) display_name!: string;
  @identifier('modality') @Bounded(charge.pricing_metric.fields.modality) modality!: string;
}

class ChargeInputDto implements ChargeInput {
  @identifier('billing') @Bounded(charge.billing) billing!: string;
  @currencyCode('currency') currency!: string;
  @ValidateIf((_, v) => v !== null)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Bounded(charge.price)
  price!: number | null;
  @identifier('charge_type') @Bounded(charge.charge_type) charge_type!: string;
  // ValidateNested alone lets an array through where an object belongs (it validates the
  // array's items, none in []): IsObject here and on the items of plans, charges, discounts.
  @ValidateIf((_, v) => v !== null)
  @IsObject({ message: 'pricing_metric must be an object or null' })
  @ValidateNested()
  @Type(() => PricingMetricInputDto)
  pricing_metric!: PricingMetricInputDto | null;
  @IsOptional() @identifier('usage_type') @Bounded(charge.usage_type) usage_type?: string | null;
  @IsString() @Bounded(charge.display_name) display_name!: string;
  @IsOptional() @IsString() @Bounded(charge.price_display) price_display?: string | null;
  @IsOptional() @Bounded(charge.included_quantity) included_quantity?: unknown;
  @IsOptional() @Bounded(charge.overage_info) overage_info?: unknown;
}

class DiscountInputDto implements DiscountInput {
  @identifier('discount_category') @Bounded(discount.discount_category) discount_category!: string;
  @identifier('amount_type') @Bounded(discount.amount_type) amount_type!: string;
  @IsNumber({ allowNaN: false, allowInfinity: false }) @Bounded(discount.amount) amount!: number;
  @IsString() @Bounded(discount.description) description!: string;
  @IsString() @Bounded(discount.duration) duration!: string;
}

class PlanInputDto implements PlanInput {
  @IsString() @Bounded(plan.display_name) display_name!: string;
  @IsString() @Bounded(plan.internal_name) internal_name!: string;
  @IsBoolean() add_on!: boolean;
  @IsArray()
  @Bounded(plan.charges)
  @IsObject({ each: true, message: 'each charge must be an object' })
  @ValidateNested({ each: true })
  @Type(() => ChargeInputDto)
  charges!: ChargeInputDto[];
  @IsArray()
  @Bounded(plan.discounts)
  @IsObject({ each: true, message: 'each discount must be an object' })
  @ValidateNested({ each: true })
  @Type(() => DiscountInputDto)
  discounts!: DiscountInputDto[];
}

class PricingRecordInput extends PageVersionKeyInput implements PricingRecord {
  @Equals('pricing') type!: 'pricing';
  @IsOptional() @IsString() @Bounded(pricing.scraper) scraper?: string;
  @IsArray()
  @Bounded(pricing.plans)
  @IsObject({ each: true, message: 'each plan must be an object' })
  @ValidateNested({ each: true })
  @Type(() => PlanInputDto)
  plans!: PlanInputDto[];
}

class ExchangeRateRecordInput implements ExchangeRateRecord {
  @Equals('exchange_rate') type!: 'exchange_rate';
  @Matches(VERSION_PATTERN, { message: 'date must be YYYYMMDD' }) date!: string;
  @currencyCode('base') base!: string;
  @currencyCode('quote') quote!: string;
  @IsNumber({ allowNaN: false, allowInfinity: false }) @Bounded(exchange_rate.rate) rate!: number;
}

/** Each record type's checks, written out for their messages; their fields are RECORD_FIELDS'. */
const INPUT_CLASSES = recordClasses({
  company: CompanyRecordInput,
  page: PageRecordInput,
  scrape: ScrapeRecordInput,
  pricing: PricingRecordInput,
  exchange_rate: ExchangeRateRecordInput,
});

// Unknown fields are refused: a misspelt optional field would otherwise vanish silently.
const OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
};

interface JsonShapeProblem {
  /** Where, as a dotted path (`plans.0.charges`); empty for the value itself. */
  field: string;
  reason: string;
}

/** Half of a UTF-16 surrogate pair without its other half: no character, so not storable text. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * A part of `value` that must not reach class-transformer or the database, walked
 * without recursion: more than `maxValues` values in all (objects, arrays and the values in
 * them, when given); nesting deeper than MAX_JSON_DEPTH; a key every object inherits
 * (`constructor`, `__proto__`, `toString`...), which class-validator takes for a declared field
 * and class-transformer for the value's class (it throws); text the database would refuse
 * (a NUL character: an event holding one would stop the projections for good) or change (a lone
 * surrogate, stored as U+FFFD); or a number JSON cannot hold (JSON.parse reads 1e400 as
 * Infinity, which JSON.stringify writes as null).
 */
export function jsonShapeProblem(
  value: unknown,
  { maxValues = Infinity }: { maxValues?: number } = {},
): JsonShapeProblem | null {
  const pending: [unknown, number, string][] = [[value, 1, '']];
  let values = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [current, depth, field] = next;
    if (++values > maxValues) {
      return { field, reason: `a body holds at most ${maxValues} values in all` };
    }
    if (typeof current === 'string') {
      const reason = textProblem(current);
      if (reason) return { field, reason };
    }
    if (typeof current === 'number' && !Number.isFinite(current)) {
      return { field, reason: 'numbers must be finite' };
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) {
      return { field, reason: `arrays and objects may nest at most ${MAX_JSON_DEPTH} levels deep` };
    }
    for (const [key, child] of Object.entries(current)) {
      const at = field ? `${field}.${key}` : key;
      if (!Array.isArray(current) && (key in Object.prototype || textProblem(key))) {
        return { field: at, reason: `the key ${JSON.stringify(key)} is not allowed` };
      }
      pending.push([child, depth + 1, at]);
    }
  }
  return null;
}

function textProblem(text: string): string | null {
  if (text.includes('\0')) return 'text must not contain the NUL character';
  if (LONE_SURROGATE.test(text)) return 'text must not contain a lone UTF-16 surrogate';
  return null;
}

/**
 * The reasons given for one record, at most: a record within every bound can still hold 10,000
 * charges, each with a handful of problems, and the answer would run to megabytes.
 */
const MAX_REASONS = 20;

/** Why a pushed value is not a valid record (empty when it is). Used by the API and the worker. */
export async function recordProblems(
  value: unknown,
  scrapers: readonly string[],
): Promise<string[]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return ['a record must be a JSON object'];
  }
  const type = (value as { type?: unknown }).type;
  const recordType = (RECORD_TYPES as readonly unknown[]).includes(type)
    ? (type as IngestRecord['type'])
    : null;
  // First, as it looks at no more than the declared lists' lengths.
  const tooLong = recordType && listTooLong(value, RECORD_BOUNDS[recordType]);
  if (tooLong) return [tooLong];
  const shape = jsonShapeProblem(value);
  if (shape) return [`${shape.field}: ${shape.reason}`];
  if (!recordType) return [`type must be one of: ${RECORD_TYPES.join(', ')}`];
  const input = plainToInstance<object, unknown>(INPUT_CLASSES[recordType], value);
  const problems = flatten(await validate(input, OPTIONS));
  problems.push(...domainProblems(value as IngestRecord, scrapers));
  return problems.length <= MAX_REASONS
    ? problems
    : [
        ...problems.slice(0, MAX_REASONS - 1),
        `and ${problems.length - MAX_REASONS + 1} more problems`,
      ];
}

/**
 * The first declared list (plans, charges, discounts) of `value` longer than its bound, walked
 * before class-transformer: it would build and check every item of a list of any length (a
 * 200 KB body of empty charges took the checking thread's whole heap).
 */
function listTooLong(value: object, fields: Record<string, FieldBounds>): string | null {
  const pending: [object, Record<string, FieldBounds>, string][] = [[value, fields, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [current, declared, path] = next;
    for (const [name, bounds] of Object.entries(declared)) {
      const field = (current as Record<string, unknown>)[name];
      const at = path ? `${path}.${name}` : name;
      if (bounds.kind === 'object' && field !== null && typeof field === 'object') {
        pending.push([field, bounds.fields, at]);
      }
      if (bounds.kind !== 'list' || !Array.isArray(field)) continue;
      if (field.length > bounds.maxItems) {
        return `${at} must contain no more than ${bounds.maxItems} elements`;
      }
      for (const [index, item] of field.entries()) {
        if (item !== null && typeof item === 'object') {
          pending.push([item, bounds.items, `${at}.${index}`]);
        }
      }
    }
  }
  return null;
}

/** Rules a decorator cannot say. */
function domainProblems(record: IngestRecord, scrapers: readonly string[]): string[] {
  const problems: string[] = [];
  if (
    record.type === 'company' &&
    typeof record.employees === 'string' &&
    EMPLOYEES_PATTERN.test(record.employees) &&
    employeeBandLowerBound(record.employees) === null
  ) {
    problems.push('employees range must not end below its start');
  }
  if (
    (record.type === 'scrape' || record.type === 'pricing') &&
    typeof record.version === 'string' &&
    VERSION_PATTERN.test(record.version) &&
    !isValidVersion(record.version)
  ) {
    problems.push('version must be a real calendar date');
  }
  if (record.type === 'exchange_rate') problems.push(...exchangeRateProblems(record));
  const scraper =
    record.type === 'scrape' || record.type === 'pricing' ? record.scraper : undefined;
  if (typeof scraper === 'string' && !scrapers.includes(scraper)) {
    problems.push(`scraper must be one of: ${scrapers.join(', ')}`);
  }
  return problems;
}

function exchangeRateProblems({ date, base, quote }: ExchangeRateRecord): string[] {
  const problems: string[] = [];
  if (typeof date === 'string' && VERSION_PATTERN.test(date) && !isValidVersion(date)) {
    problems.push('date must be a real calendar date');
  }
  if (typeof base === 'string' && base === quote) {
    problems.push('base and quote must be different currencies');
  }
  return problems;
}

function flatten(errors: ValidationError[], path = ''): string[] {
  return errors.flatMap((error) => {
    const at = path ? `${path}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) =>
      message.startsWith(error.property)
        ? `${path ? `${path}.` : ''}${message}`
        : `${at}: ${message}`,
    );
    return [...own, ...flatten(error.children ?? [], at)];
  });
}
