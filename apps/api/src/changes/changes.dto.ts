import { ApiProperty, ApiSchema, IntersectionType } from '@nestjs/swagger';
import { PATTERNS } from '../openapi/patterns.js';
import { PageRefDto, PricingChangeDto } from '../pricing/pricing.dto.js';

@ApiSchema({
  name: 'FeedChange',
  description:
    'One change of the feed: a pricing change (as in the diff) with the page and the two ' +
    'versions it is between.',
})
class FeedChangeDto extends IntersectionType(PageRefDto, PricingChangeDto) {
  @ApiProperty({
    type: String,
    nullable: true,
    pattern: PATTERNS.version,
    description: "The page's latest version before; null for its first extraction (plans added)",
    example: '20250901',
  })
  from_version!: string | null;

  @ApiProperty({ pattern: PATTERNS.version, example: '20251016' })
  to_version!: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When the extraction entered the event log',
    example: '2025-10-16T08:30:00.000Z',
  })
  recorded_at!: string;
}

@ApiSchema({
  name: 'ChangeFeed',
  description:
    'A page of the change feed, oldest first. Send next_cursor as since to read on: it is ' +
    'there even when changes is empty, so polling with it never misses nor repeats a change.',
})
export class ChangeFeedDto {
  @ApiProperty({ type: () => [FeedChangeDto] })
  changes!: FeedChangeDto[];

  @ApiProperty({
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'Opaque: where this page ends; pass it as since',
    example: 'MC40Mi4x',
  })
  next_cursor!: string;

  @ApiProperty({ description: 'Whether more changes were already there past this page' })
  has_more!: boolean;
}
