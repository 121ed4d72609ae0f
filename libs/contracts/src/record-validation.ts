// class-transformer reads decorator metadata when this module loads, whoever imports it.
import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
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
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
  validate,
  type ValidationError,
  type ValidatorOptions,
} from 'class-validator';
import {
  CATEGORIES,
  COMPANY_SLUG,
  OPEN_IDENTIFIER,
  PAGE_SLUG,
  employeeBandLowerBound,
  isValidVersion,
  type IngestRecord,
  RECORD_TYPES,
} from '#app/domain';

const HTTP_URL = /^https?:\/\/[^\s]+$/;
const VERSION_PATTERN = /^\d{8}$/;
const MAX_URL = 2048;

class CompanyRecordInput {
  @Equals('company') type!: 'company';
  @Matches(COMPANY_SLUG, { message: 'slug must be lower-case labels separated by dots' })
  @MaxLength(255)
  slug!: string;
  @IsString() @MinLength(1) @MaxLength(255) name!: string;
  @IsIn(CATEGORIES, { message: `category must be one of: ${CATEGORIES.join(', ')}` })
  category!: string;
  @Matches(/^\d+(\+|-\d+)$/, { message: 'employees must be a band such as 1000+ or 51-200' })
  employees!: string;
  @Matches(HTTP_URL, { message: 'url must be an http(s) URL' }) @MaxLength(MAX_URL) url!: string;
}

/** The fields that name a pricing page, shared by every record about one. */
class PageKeyInput {
  @Matches(COMPANY_SLUG, { message: 'company_slug must be a company slug' })
  @MaxLength(255)
  company_slug!: string;
  @IsString()
  @Matches(PAGE_SLUG, { message: 'page_slug must be one lower-case label or empty' })
  @MaxLength(100)
  page_slug!: string;
}

/** A page and a scrape version: the key of scrapes and extractions. */
class PageVersionKeyInput extends PageKeyInput {
  @Matches(VERSION_PATTERN, { message: 'version must be YYYYMMDD' }) version!: string;
}

class PageRecordInput extends PageKeyInput {
  @Equals('page') type!: 'page';
  @Matches(HTTP_URL, { message: 'pricing_page_url must be an http(s) URL' })
  @MaxLength(MAX_URL)
  pricing_page_url!: string;
}

const nullableUrl = (field: string) =>
  Matches(HTTP_URL, { message: `${field} must be an http(s) URL or null` });

class ScrapeRecordInput extends PageVersionKeyInput {
  @Equals('scrape') type!: 'scrape';
  @Matches(HTTP_URL, { message: 'page_url must be an http(s) URL' })
  @MaxLength(MAX_URL)
  page_url!: string;
  @ValidateIf((_, v) => v !== null)
  @nullableUrl('screenshot_url')
  @MaxLength(MAX_URL)
  screenshot_url!: string | null;
  @ValidateIf((_, v) => v !== null) @nullableUrl('markdown_url') @MaxLength(MAX_URL) markdown_url!:
    string | null;
  @ValidateIf((_, v) => v !== null) @nullableUrl('html_url') @MaxLength(MAX_URL) html_url!:
    string | null;
  @ValidateIf((_, v) => v !== null) @nullableUrl('ocr_url') @MaxLength(MAX_URL) ocr_url!:
    string | null;
  @IsString() scraper!: string;
  @ValidateIf((_, v) => v !== null)
  @IsBoolean({ message: 'valid must be a boolean or null' })
  valid!: boolean | null;
  @ValidateIf((_, v) => v !== null) @IsInt() @Min(0) @Max(10) score!: number | null;
  @ValidateIf((_, v) => v !== null)
  @IsBoolean({ message: 'banner_free must be a boolean or null' })
  banner_free!: boolean | null;
}

const identifier = (field: string) =>
  Matches(OPEN_IDENTIFIER, { message: `${field} must be a lower-case identifier` });

class PricingMetricInputDto {
  @IsString() @MinLength(1) @MaxLength(200) display_name!: string;
  @identifier('modality') modality!: string;
}

class ChargeInputDto {
  @identifier('billing') billing!: string;
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be a three-letter ISO 4217 code' })
  currency!: string;
  @ValidateIf((_, v) => v !== null)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  price!: number | null;
  @identifier('charge_type') charge_type!: string;
  // ValidateNested alone lets an array through where an object belongs (it validates the
  // array's items, none in []): IsObject here and on the items of plans, charges, discounts.
  @ValidateIf((_, v) => v !== null)
  @IsObject({ message: 'pricing_metric must be an object or null' })
  @ValidateNested()
  @Type(() => PricingMetricInputDto)
  pricing_metric!: PricingMetricInputDto | null;
  @IsOptional() @identifier('usage_type') usage_type?: string | null;
  @IsString() @MinLength(1) @MaxLength(200) display_name!: string;
  @IsOptional() @IsString() @MaxLength(200) price_display?: string | null;
  @IsOptional() included_quantity?: unknown;
  @IsOptional() overage_info?: unknown;
}

class DiscountInputDto {
  @identifier('discount_category') discount_category!: string;
  @identifier('amount_type') amount_type!: string;
  @IsNumber({ allowNaN: false, allowInfinity: false }) amount!: number;
  @IsString() @MaxLength(1000) description!: string;
  @IsString() @MaxLength(200) duration!: string;
}

class PlanInputDto {
  @IsString() @MinLength(1) @MaxLength(200) display_name!: string;
  @IsString() @MinLength(1) @MaxLength(200) internal_name!: string;
  @IsBoolean() add_on!: boolean;
  @IsArray()
  @IsObject({ each: true, message: 'each charge must be an object' })
  @ValidateNested({ each: true })
  @Type(() => ChargeInputDto)
  charges!: ChargeInputDto[];
  @IsArray()
  @IsObject({ each: true, message: 'each discount must be an object' })
  @ValidateNested({ each: true })
  @Type(() => DiscountInputDto)
  discounts!: DiscountInputDto[];
}

class PricingRecordInput extends PageVersionKeyInput {
  @Equals('pricing') type!: 'pricing';
  @IsOptional() @IsString() scraper?: string;
  @IsArray()
  @IsObject({ each: true, message: 'each plan must be an object' })
  @ValidateNested({ each: true })
  @Type(() => PlanInputDto)
  plans!: PlanInputDto[];
}

const INPUT_CLASSES = {
  company: CompanyRecordInput,
  page: PageRecordInput,
  scrape: ScrapeRecordInput,
  pricing: PricingRecordInput,
} as const;

// Unknown fields are refused: a misspelt optional field would otherwise vanish silently.
const OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
};

/**
 * How deep arrays and objects may nest in a pushed value. A record's own structure is six levels
 * deep and its free-form fields (included_quantity, overage_info) get the rest; class-transformer
 * recurses once per level, so a value thousands of levels deep would overflow the stack.
 */
export const MAX_JSON_DEPTH = 32;

export interface JsonShapeProblem {
  /** Where, as a dotted path (`plans.0.charges`); empty for the value itself. */
  field: string;
  reason: string;
}

/**
 * A part of `value` that must not reach class-transformer or the database, walked
 * without recursion: nesting deeper than MAX_JSON_DEPTH; a key every object inherits
 * (`constructor`, `__proto__`, `toString`...), which class-validator takes for a declared field
 * and class-transformer for the value's class (it throws); or a NUL character, which
 * PostgreSQL refuses in text (an event holding one would stop the projections for good).
 */
export function jsonShapeProblem(value: unknown): JsonShapeProblem | null {
  const pending: [unknown, number, string][] = [[value, 1, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [current, depth, field] = next;
    if (typeof current === 'string' && current.includes('\0')) {
      return { field, reason: 'text must not contain the NUL character' };
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) {
      return { field, reason: `arrays and objects may nest at most ${MAX_JSON_DEPTH} levels deep` };
    }
    for (const [key, child] of Object.entries(current)) {
      const at = field ? `${field}.${key}` : key;
      if (!Array.isArray(current) && (key in Object.prototype || key.includes('\0'))) {
        return { field: at, reason: `the key ${JSON.stringify(key)} is not allowed` };
      }
      pending.push([child, depth + 1, at]);
    }
  }
  return null;
}

/** Why a pushed value is not a valid record (empty when it is). Used by the API and the worker. */
export async function recordProblems(
  value: unknown,
  scrapers: readonly string[],
): Promise<string[]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return ['a record must be a JSON object'];
  }
  const shape = jsonShapeProblem(value);
  if (shape) return [`${shape.field}: ${shape.reason}`];
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !(RECORD_TYPES as readonly string[]).includes(type)) {
    return [`type must be one of: ${RECORD_TYPES.join(', ')}`];
  }
  const inputClass: new () => object = INPUT_CLASSES[type as IngestRecord['type']];
  const input = plainToInstance(inputClass, value);
  const problems = flatten(await validate(input, OPTIONS));
  problems.push(...domainProblems(value as IngestRecord, scrapers));
  return problems;
}

/** Rules a decorator cannot say. */
function domainProblems(record: IngestRecord, scrapers: readonly string[]): string[] {
  const problems: string[] = [];
  if (
    record.type === 'company' &&
    typeof record.employees === 'string' &&
    /^\d+(\+|-\d+)$/.test(record.employees) &&
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
  const scraper =
    record.type === 'scrape' || record.type === 'pricing' ? record.scraper : undefined;
  if (typeof scraper === 'string' && !scrapers.includes(scraper)) {
    problems.push(`scraper must be one of: ${scrapers.join(', ')}`);
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
