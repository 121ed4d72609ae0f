import { parseVersion } from './periods.js';

/**
 * A scrape version: YYYYMMDD naming a real calendar date, as the read API parses it (years 1000
 * to 9999), so that every version a record may carry can be read back by that version.
 */
export function isValidVersion(version: string): boolean {
  return parseVersion(version).ok;
}
