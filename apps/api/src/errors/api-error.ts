/**
 * The one error type handlers throw. `code` is a stable string clients may compare; the global
 * filter renders it in the documented body shape of the route's family.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}
