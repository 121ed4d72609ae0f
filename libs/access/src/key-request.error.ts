import { CodedError } from '#app/contracts';

/** A key request names a plan, scope or expiry that cannot be (400); `field` says which. */
export class KeyRequestError extends CodedError {
  override readonly name = 'KeyRequestError';

  constructor(
    readonly field: string,
    provided: unknown,
    message: string,
    validValues?: string[],
  ) {
    super(400, 'INVALID_KEY_REQUEST', message, {
      parameter: field,
      provided,
      ...(validValues ? { valid_values: validValues } : {}),
    });
  }
}
