import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { ApiQuery, type ApiQueryOptions } from '@nestjs/swagger';
import { ApiError } from '../errors/api-error.js';

/** A query string value as Fastify parses it: repeated parameters arrive as an array. */
export type QueryValue = string | string[] | undefined;

/**
 * What the document states of a query parameter besides its name: description, example, and
 * the kind's type, bounds, pattern or enumeration. Not required unless it says so.
 */
type DocumentedQuery = Record<string, unknown> & { description: string; required?: boolean };

/** One query parameter of a route, declared on a property of the route's query class. */
interface Declared {
  name: string;
  documented: ApiQueryOptions;
  read(value: QueryValue): unknown;
  /** The parameter this one's value may not be above: 400 INVALID_RANGE. */
  atMost?: string;
}

const DECLARED = new WeakMap<object, Declared[]>();

/** Parameters of which a query may give one at most, and the reason given when it gives more. */
interface Exclusive {
  names: readonly string[];
  message: (given: string[]) => string;
}

const EXCLUSIVE = new WeakMap<object, Exclusive>();

/**
 * A query that may give at most one of `names`: more is 400 CONFLICTING_PARAMETERS with what was
 * given, before any parameter is read (the values do not matter once they conflict).
 */
export function OneOfParameters(
  names: readonly string[],
  message: Exclusive['message'],
): ClassDecorator {
  return (declaration) => {
    EXCLUSIVE.set(declaration, { names, message });
  };
}

/**
 * A property decorator whose property is a query parameter of that name, typed as its kind
 * reads it (undefined when absent, unless the kind has a default).
 */
export type QueryParameterDecorator<V> = <K extends string>(
  target: { [P in K]?: V },
  property: K,
) => void;

/**
 * Declares a query parameter: `documented` is what the document says of it, `read` checks a
 * value and gives the typed one, or throws the parameter's 400.
 */
export function QueryParameter<V>(
  documented: DocumentedQuery,
  read: (name: string, value: QueryValue) => V,
  options: { atMost?: string } = {},
): QueryParameterDecorator<V> {
  return (target, name) => {
    const declaration = target.constructor;
    DECLARED.set(declaration, [
      ...(DECLARED.get(declaration) ?? []),
      {
        name,
        documented: { name, required: false, ...documented } as ApiQueryOptions,
        read: (value) => read(name, value),
        ...options,
      },
    ]);
  };
}

function declaredOf(declaration: unknown): Declared[] {
  const parameters = typeof declaration === 'function' && DECLARED.get(declaration);
  if (!parameters) throw new Error(`${String(declaration)} declares no query parameters`);
  return parameters;
}

/**
 * The @ApiQuery of each parameter `declaration` declares. Applied last first: Nest lists a
 * method's parameters in the order their decorators run, bottom up, and the routes' parameters
 * have always been listed that way, so the document and the clients generated from it keep
 * their order.
 */
export function ApiQueryOf(declaration: abstract new () => object): MethodDecorator {
  const parameters = declaredOf(declaration);
  return (target, key, descriptor) => {
    for (const { documented } of [...parameters].reverse()) {
      ApiQuery(documented)(target, key, descriptor);
    }
  };
}

/**
 * `@Query(declaredQuery) query: SomeQuery`: the query string read by the parameters SomeQuery
 * declares, in their order (the first one at fault gives the 400), as a plain object; parameters
 * it declares exclusive (OneOfParameters) are checked first, and ranges (atMost) last.
 */
export const declaredQuery: PipeTransform<Record<string, QueryValue>> = {
  transform(query, { metatype }: ArgumentMetadata) {
    const parameters = declaredOf(metatype);
    const exclusive = metatype && EXCLUSIVE.get(metatype);
    const given =
      exclusive?.names.filter((name) => query[name] !== undefined && query[name] !== '') ?? [];
    if (exclusive && given.length > 1) {
      throw new ApiError(400, 'CONFLICTING_PARAMETERS', exclusive.message(given), {
        provided: Object.fromEntries(given.map((name) => [name, query[name]])),
      });
    }
    const values: Record<string, unknown> = {};
    for (const { name, read } of parameters) values[name] = read(query[name]);
    for (const { name, atMost } of parameters) {
      const [low, high] = [values[name], atMost && values[atMost]];
      if (atMost && typeof low === 'number' && typeof high === 'number' && low > high) {
        throw new ApiError(400, 'INVALID_RANGE', `${name} is above ${atMost}`, {
          parameter: name,
          provided: query[name],
          expected: `at most ${atMost} (${high})`,
        });
      }
    }
    return values;
  },
};
