/**
 * Any JSON value (null included): a combinator keeps Nest from reading `unknown` as an object.
 * The object branch says `additionalProperties: true` because client generators read a bare
 * `type: object` as an object with no property at all (openapi-typescript: Record<string, never>).
 */
export const ANY_JSON_VALUE = {
  anyOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
    { type: 'null' },
  ],
};
