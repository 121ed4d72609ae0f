import type { ExtractionPosition, FeedPosition } from './pricing-change.reader.js';

/** Before every change: a feed read without `since` starts here. */
export const START_OF_FEED: FeedPosition = { transactionId: '0', seq: '0', index: 0 };

/**
 * The highest change index a cursor may hold. An extraction has far fewer changes (at most 100
 * plans of 100 charges and 100 discounts each, a few fields apiece), so (its position, this)
 * lies after every change of it and before the next extraction's.
 */
const PAST_EVERY_CHANGE = 999_999_999;

/**
 * The feed position just after an extraction, all its changes included: where a reader that
 * has the extraction whole (an export) stands in the feed.
 */
export function afterExtraction(position: ExtractionPosition): FeedPosition {
  return { ...position, index: PAST_EVERY_CHANGE };
}

// Up to 19 digits, and at most the largest PostgreSQL bigint (below): the columns' type.
const POSITION = /^(0|[1-9]\d{0,18})\.(0|[1-9]\d{0,18})\.(0|[1-9]\d{0,8})$/;
const MAX_BIGINT = 2n ** 63n - 1n;

/**
 * The feed's cursor: opaque to clients (base64url), so its content may change in a later
 * version; today the feed position as text.
 */
export function encodeCursor(position: FeedPosition): string {
  return Buffer.from(`${position.transactionId}.${position.seq}.${position.index}`).toString(
    'base64url',
  );
}

/** The position a cursor names, or null when it is not one this service handed out. */
export function decodeCursor(cursor: string): FeedPosition | null {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(cursor)) return null;
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  // A number past the columns' range names no position, and PostgreSQL would refuse the query.
  if (!match || BigInt(match[1]!) > MAX_BIGINT || BigInt(match[2]!) > MAX_BIGINT) return null;
  const position = { transactionId: match[1]!, seq: match[2]!, index: Number(match[3]) };
  // base64url decoding ignores stray trailing bits: only the canonical spelling is a cursor.
  return encodeCursor(position) === cursor ? position : null;
}
