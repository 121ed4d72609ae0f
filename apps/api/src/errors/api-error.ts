import { CodedError } from '#app/contracts';

/**
 * The error the API's own handlers throw. `code` is a stable string clients may compare; the
 * global filter renders it, as any CodedError a library throws, in the documented body shape of
 * the route's family.
 */
export class ApiError extends CodedError {
  override readonly name = 'ApiError';
}
