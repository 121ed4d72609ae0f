import type { RecordOf, RecordType } from './records.js';

type Item<T> = T extends readonly (infer E)[] ? E : T;

/** The fields of `C` that `R` lacks, at any depth (never when there are none). */
type UndeclaredFields<C, R> = {
  [K in keyof C]-?: K extends keyof R
    ? Item<NonNullable<C[K]>> extends object
      ? UndeclaredFields<Item<NonNullable<C[K]>>, Item<NonNullable<R[K]>>>
      : never
    : K;
}[keyof C];

type RecordClassTable = { [T in RecordType]: abstract new () => RecordOf<T> };

/** What a class with an undeclared field lacks, to be named in the compiler's error. */
type DeclaredOnly<M extends RecordClassTable> = {
  [T in RecordType]: [UndeclaredFields<InstanceType<M[T]>, RecordOf<T>>] extends [never]
    ? unknown
    : { undeclaredField: UndeclaredFields<InstanceType<M[T]>, RecordOf<T>> };
};

/**
 * `classes` as given: the classes that describe each record type to a framework (record
 * validation, the OpenAPI document), where the type system cannot derive them from
 * RECORD_FIELDS. A record type without its class, a declared field a class lacks, or a field a
 * class has that the declaration does not (nested classes included) is a compile error here.
 */
export function recordClasses<const M extends RecordClassTable>(classes: M & DeclaredOnly<M>): M {
  return classes;
}
