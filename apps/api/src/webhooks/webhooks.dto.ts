import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  CATEGORIES,
  categoryNamed,
  COMPANY_SLUG,
  PRICING_CHANGE_TYPES,
  SIGNIFICANCES,
  type PricingChangeType,
  type Significance,
} from '#app/domain';
import { MAX_WEBHOOK_URL_LENGTH } from '#app/webhooks';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
} from 'class-validator';
import { EXAMPLES } from '../openapi/parameters.js';
import { PATTERNS } from '../openapi/patterns.js';
import { nullableNumber, Properties, WithProperties } from '../openapi/properties.js';

const MAX_WEBHOOK_COMPANIES = 100;

/** OpenAPI 3.1 (this document) writes the bound itself; Nest's types still have 3.0's boolean. */
const ABOVE_ZERO: Record<string, unknown> = { exclusiveMinimum: 0 };

/** Webhooks one key may hold: enough for a few environments, not a fan-out service. */
export const MAX_WEBHOOKS_PER_KEY = 20;

@ApiSchema({ name: 'RegisterWebhookRequest' })
export class RegisterWebhookDto {
  @ApiProperty({
    maxLength: MAX_WEBHOOK_URL_LENGTH,
    description:
      'An https URL whose host resolves only to public addresses (WEBHOOK_ALLOW_PRIVATE_URLS ' +
      'lifts both rules), without a user name or password',
    example: 'https://hooks.example.com/pricing',
  })
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  url!: string;

  @ApiPropertyOptional({
    enum: PRICING_CHANGE_TYPES,
    isArray: true,
    minItems: 1,
    maxItems: PRICING_CHANGE_TYPES.length,
    description: 'Only changes of these types; absent for every type',
    example: ['price_increased', 'price_decreased'],
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(PRICING_CHANGE_TYPES.length)
  @IsIn(PRICING_CHANGE_TYPES, { each: true })
  event_types?: PricingChangeType[];

  @ApiPropertyOptional({
    type: String,
    isArray: true,
    minItems: 1,
    maxItems: MAX_WEBHOOK_COMPANIES,
    description: 'Only changes of these companies (full slugs); absent for every company',
    example: [EXAMPLES.companySlug],
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_WEBHOOK_COMPANIES)
  @IsString({ each: true })
  @Matches(COMPANY_SLUG, { each: true, message: 'each value in companies must be a company slug' })
  companies?: string[];

  @ApiPropertyOptional({
    type: String,
    isArray: true,
    minItems: 1,
    maxItems: CATEGORIES.length,
    description: `Only changes of companies in these categories, in any case: ${CATEGORIES.join(', ')}; absent for every category`,
    example: ['communication'],
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(CATEGORIES.length)
  @IsString({ each: true })
  @ValidateBy(
    {
      name: 'isCategory',
      validator: { validate: (value) => categoryNamed(String(value)) !== undefined },
    },
    {
      each: true,
      message: `each value in categories must be one of ${CATEGORIES.join(', ')} (any case)`,
    },
  )
  categories?: string[];

  @ApiPropertyOptional({
    enum: SIGNIFICANCES,
    description:
      'Only changes of this significance or more: minor (every change), moderate (moderate and ' +
      'major) or major; absent for every change',
    example: 'moderate',
  })
  @IsOptional()
  @IsIn(SIGNIFICANCES)
  min_significance?: Significance;

  @ApiPropertyOptional({
    type: Number,
    ...ABOVE_ZERO,
    description:
      'Only price changes (price_increased, price_decreased) whose change_percent is at least ' +
      'this far from 0, either way, or null (from 0, or no monthly equivalent); every other ' +
      'change passes. Absent for every price change',
    example: 10,
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  min_change_percent?: number;
}

@ApiSchema({ name: 'Webhook', description: 'A registered webhook; never its secret' })
class WebhookDto extends Properties({
  id: { pattern: PATTERNS.uuid, example: '6f1c2b9e-0d4a-4a7b-9c1e-2f3d4e5a6b7c' },
  url: { example: 'https://hooks.example.com/pricing' },
  event_types: {
    enum: PRICING_CHANGE_TYPES,
    isArray: true,
    nullable: true,
    description: 'null: every type',
    example: null,
  },
  companies: {
    isArray: true,
    nullable: true,
    description: 'null: every company',
    example: [EXAMPLES.companySlug],
  },
  categories: {
    enum: CATEGORIES,
    isArray: true,
    nullable: true,
    description: 'Canonically spelled; null: every category',
    example: ['Communication'],
  },
  min_significance: {
    enum: SIGNIFICANCES,
    nullable: true,
    description: 'null: every change',
    example: 'moderate',
  },
  min_change_percent: nullableNumber('null: every price change', 10),
  created_at: { format: 'date-time', example: '2025-10-16T08:30:00.000Z' },
}) {}

@ApiSchema({
  name: 'CreatedWebhook',
  description: 'The new webhook with its signing secret, shown this once',
})
export class CreatedWebhookDto extends WithProperties(WebhookDto, {
  secret: {
    description:
      'Signs every delivery: X-Signature is t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">',
    example: 'whsec_N2Y0ZTFhYjYtYjQ3ZC00Y2M5LWE1ZjMtOWQ2ZTc4YjEyMzQ1',
  },
}) {}

@ApiSchema({ name: 'WebhookList' })
export class WebhookListDto extends Properties({
  webhooks: { type: [WebhookDto], description: "The key's webhooks, oldest first" },
}) {}
