/** The record refers to a company, page or scrape the log does not hold yet; it may arrive later. */
export class DependencyMissingError extends Error {
  override readonly name = 'DependencyMissingError';
}
