import { ApiSchema } from '@nestjs/swagger';
import { CATEGORIES } from '#app/domain';
import { PATTERNS } from '../openapi/patterns.js';
import { SeriesPlanDto } from '../openapi/shared.dto.js';
import {
  Properties,
  WithProperties,
  nullableNumber,
  nullableVersion,
} from '../openapi/properties.js';

@ApiSchema({
  name: 'ComparedPlan',
  description:
    'A plan as a series point gives it, with the lowest monthly equivalent of its charges.',
})
class ComparedPlanDto extends WithProperties(SeriesPlanDto, {
  lowest_monthly_equivalent: nullableNumber(
    "The lowest monthly equivalent among the plan's charges (0 for a free tier), converted into currency when given (charges without a rate left out); null when none has one. Rounded to 4 decimals",
    10,
  ),
}) {}

@ApiSchema({ name: 'ComparedPage', description: 'One page of a comparison, at as_of.' })
class ComparedPageDto extends Properties({
  slug: { description: 'The composite slug of the page', example: 'acmechat' },
  company_slug: { pattern: PATTERNS.companySlug, example: 'acmechat.io' },
  company_name: { example: 'AcmeChat' },
  category: { enum: CATEGORIES, example: 'Communication' },
  version: nullableVersion(
    'The latest extraction on or before as_of; null when there is none',
    '20260307',
  ),
  entry_price: nullableNumber(
    "The extraction's entry price: the lowest monthly equivalent above 0 among the charges of its plans that are not add-ons, converted into currency when given. Null without an extraction, without such a charge, when no such charge has a rate into currency, or, without currency, when the page prices in two currencies. Rounded to 4 decimals",
    12,
  ),
  plans: {
    type: () => [ComparedPlanDto],
    description: "The extraction's plans in its order; empty when version is null",
  },
}) {}

@ApiSchema({
  name: 'Comparison',
  description: 'Pages side by side: the pricing of each in force at one date.',
})
export class ComparisonDto extends Properties({
  as_of: { pattern: PATTERNS.version, example: '20260307' },
  currency: {
    nullable: true,
    pattern: PATTERNS.currency,
    description: 'The currency asked for; null when none was (figures in their own currencies)',
    example: 'EUR',
  },
  pages: { type: () => [ComparedPageDto], description: 'In the order of slugs' },
}) {}
