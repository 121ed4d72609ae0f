import { ApiProperty, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  CATEGORIES,
  declaredFields,
  MAX_JSON_DEPTH,
  RECORD_CLASSES,
  type DeclaredField,
  type RecordClass,
} from '#app/domain';
import { ANY_JSON_VALUE } from './any-json-value.js';
import { PATTERNS } from './patterns.js';

/**
 * The records' OpenAPI schemas, made from their one declaration (the record classes of
 * libs/domain): each declared field becomes a property with its type, nullability, syntax,
 * bounds, description and example. Nest's own decorators are applied to the domain's classes
 * here, in the API process alone, so the document is built as for any other class.
 */

/** Schema keywords, as Nest's ApiProperty takes them. */
type Keywords = Record<string, unknown>;

/** What record validation allows in a free-form field (jsonShapeProblem in libs/contracts). */
const freeForm = (maxJsonLength: number) =>
  `Any JSON value, stored as given, at most ${maxJsonLength} characters as JSON text. Like ` +
  `every part of a record, it nests at most ${MAX_JSON_DEPTH} levels, holds no NUL character ` +
  'and no lone UTF-16 surrogate, has finite numbers only, and uses no key every JavaScript ' +
  'object inherits (constructor, __proto__, toString...)';

/** A text field of `pattern`, at most `maxLength` long. */
const text = (maxLength: number, pattern?: string): Keywords => ({
  type: String,
  ...(pattern === undefined ? {} : { pattern }),
  maxLength,
});

/** A field's schema keywords: its type, syntax and bounds, and its kind's own description. */
function kindKeywords(field: DeclaredField): Keywords {
  switch (field.kind) {
    case 'text':
      return field.minLength > 0
        ? { type: String, minLength: field.minLength, maxLength: field.maxLength }
        : text(field.maxLength);
    case 'scraper':
      return text(field.maxLength);
    case 'url':
      return {
        ...text(field.maxLength),
        description: `An http(s) URL, at most ${field.maxLength} characters`,
      };
    case 'company-slug':
      return text(field.maxLength, PATTERNS.companySlug);
    case 'page-slug':
      return text(field.maxLength, PATTERNS.pageSlug);
    case 'identifier':
      return text(field.maxLength, PATTERNS.identifier);
    case 'employees':
      return {
        ...text(field.maxLength, PATTERNS.employees),
        description: `N+ or N-M with M >= N, each at most ${field.maxBound}`,
      };
    case 'version':
      return { type: String, pattern: PATTERNS.version };
    case 'currency':
      return { type: String, pattern: PATTERNS.currency };
    case 'category':
      return { type: String, enum: CATEGORIES };
    case 'boolean':
      return { type: Boolean };
    case 'integer':
      return { type: 'integer', minimum: field.minimum, maximum: field.maximum };
    case 'number':
      return {
        type: Number,
        ...(field.minimum === null ? {} : { minimum: field.minimum }),
        // OpenAPI 3.1 (this document) writes the bound itself, as Nest passes it on.
        ...(field.exclusiveMinimum === undefined
          ? {}
          : { exclusiveMinimum: field.exclusiveMinimum }),
        ...(field.maximum === undefined ? {} : { maximum: field.maximum }),
      };
    case 'free-form':
      return { ...ANY_JSON_VALUE, description: freeForm(field.maxJsonLength) };
    case 'list':
      return { type: () => [field.items()], maxItems: field.maxItems };
    case 'object':
      return { type: () => field.fields() };
  }
}

/** `type`'s properties, from its declared fields (and its nested classes', once each). */
function document(type: RecordClass, documented: Set<RecordClass>): void {
  if (documented.has(type)) return;
  documented.add(type);
  const { description } = type as { description?: string };
  ApiSchema({ name: type.name, ...(description ? { description } : {}) })(type);
  for (const field of declaredFields(type)) {
    const options = {
      ...kindKeywords(field),
      ...(field.nullable ? { nullable: true } : {}),
      ...(field.optional ? { required: false } : {}),
      ...(field.description === undefined ? {} : { description: field.description }),
      ...(field.example === undefined ? {} : { example: field.example }),
    };
    ApiProperty(options as ApiPropertyOptions)(type.prototype, field.name);
    if (field.kind === 'list') document(field.items(), documented);
    if (field.kind === 'object') document(field.fields(), documented);
  }
}

/** Documents every record class, and the classes of its parts once each. */
function documentRecordClasses(): typeof RECORD_CLASSES {
  const documented = new Set<RecordClass>();
  for (const [type, model] of Object.entries(RECORD_CLASSES)) {
    ApiProperty({ enum: [type] })(model.prototype, 'type');
    document(model, documented);
  }
  return RECORD_CLASSES;
}

/**
 * The record classes, documented once as this module loads: the ingestion route's body refers
 * to their schemas.
 */
export const DOCUMENTED_RECORD_CLASSES = documentRecordClasses();
