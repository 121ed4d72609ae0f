import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { COMPANY_SLUG, PRICING_CHANGE_TYPES, type PricingChangeType } from '#app/domain';
import { MAX_WEBHOOK_URL_LENGTH } from '#app/webhooks';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { EXAMPLES } from '../openapi/parameters.js';
import { PATTERNS } from '../openapi/patterns.js';

const MAX_WEBHOOK_COMPANIES = 100;

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
}

@ApiSchema({ name: 'Webhook', description: 'A registered webhook; never its secret' })
class WebhookDto {
  @ApiProperty({ pattern: PATTERNS.uuid, example: '6f1c2b9e-0d4a-4a7b-9c1e-2f3d4e5a6b7c' })
  id!: string;

  @ApiProperty({ example: 'https://hooks.example.com/pricing' })
  url!: string;

  @ApiProperty({
    enum: PRICING_CHANGE_TYPES,
    isArray: true,
    nullable: true,
    description: 'null: every type',
    example: null,
  })
  event_types!: PricingChangeType[] | null;

  @ApiProperty({
    type: String,
    isArray: true,
    nullable: true,
    description: 'null: every company',
    example: [EXAMPLES.companySlug],
  })
  companies!: string[] | null;

  @ApiProperty({ format: 'date-time', example: '2025-10-16T08:30:00.000Z' })
  created_at!: string;
}

@ApiSchema({
  name: 'CreatedWebhook',
  description: 'The new webhook with its signing secret, shown this once',
})
export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty({
    description:
      'Signs every delivery: X-Signature is t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">',
    example: 'whsec_N2Y0ZTFhYjYtYjQ3ZC00Y2M5LWE1ZjMtOWQ2ZTc4YjEyMzQ1',
  })
  secret!: string;
}

@ApiSchema({ name: 'WebhookList' })
export class WebhookListDto {
  @ApiProperty({ type: [WebhookDto], description: "The key's webhooks, oldest first" })
  webhooks!: WebhookDto[];
}
