const VERSION = /^(\d{4})(\d{2})(\d{2})$/;

/** A scrape version: YYYYMMDD naming a real calendar date. */
export function isValidVersion(version: string): boolean {
  const match = VERSION.exec(version);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}
