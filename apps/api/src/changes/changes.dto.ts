import { ApiSchema, IntersectionType } from '@nestjs/swagger';
import { PATTERNS } from '../openapi/patterns.js';
import { PageRefDto, PricingChangeDto } from '../openapi/shared.dto.js';
import { Properties, WithProperties, nullableVersion } from '../openapi/properties.js';

@ApiSchema({
  name: 'FeedChange',
  description:
    'One change of the feed: a pricing change (as in the diff) with the page and the two ' +
    'versions it is between.',
})
class FeedChangeDto extends WithProperties(IntersectionType(PageRefDto, PricingChangeDto), {
  from_version: nullableVersion(
    "The page's latest version before; null for its first extraction (plans added)",
    '20250901',
  ),
  to_version: { pattern: PATTERNS.version, example: '20251016' },
  recorded_at: {
    format: 'date-time',
    description: 'When the extraction entered the event log',
    example: '2025-10-16T08:30:00.000Z',
  },
}) {}

@ApiSchema({
  name: 'ChangeFeed',
  description:
    'A page of the change feed, oldest first. Send next_cursor as since to read on: it is ' +
    'there even when changes is empty, so polling with it never misses nor repeats a change.',
})
export class ChangeFeedDto extends Properties({
  changes: { type: () => [FeedChangeDto] },
  next_cursor: {
    pattern: PATTERNS.cursor,
    description: 'Opaque: where this page ends; pass it as since',
    example: 'MC40Mi4x',
  },
  has_more: {
    type: Boolean,
    description: 'Whether more changes were already there past this page',
  },
}) {}
