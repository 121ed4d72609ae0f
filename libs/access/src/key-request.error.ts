/** A key request names a plan, scope or expiry that cannot be; `field` says which. */
export class KeyRequestError extends Error {
  override readonly name = 'KeyRequestError';

  constructor(
    readonly field: string,
    readonly provided: unknown,
    message: string,
    readonly validValues?: string[],
  ) {
    super(message);
  }
}
