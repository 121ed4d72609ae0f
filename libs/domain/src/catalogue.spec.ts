import { describe, expect, it } from 'vitest';
import { categoryNamed, employeeBandLowerBound } from './catalogue.js';

describe('employeeBandLowerBound', () => {
  it('reads the lower bound of an open band', () => {
    expect(employeeBandLowerBound('1000+')).toBe(1000);
    expect(employeeBandLowerBound('0+')).toBe(0);
  });

  it('reads the lower bound of a range', () => {
    expect(employeeBandLowerBound('51-200')).toBe(51);
    expect(employeeBandLowerBound('1-10')).toBe(1);
  });

  it('accepts a range whose ends are equal', () => {
    expect(employeeBandLowerBound('50-50')).toBe(50);
  });

  it('orders bands by number, not as text', () => {
    const bands = ['1000+', '11-50', '201-500', '1-10', '51-200'];
    const sorted = [...bands].sort(
      (a, b) => (employeeBandLowerBound(a) ?? 0) - (employeeBandLowerBound(b) ?? 0),
    );
    expect(sorted).toEqual(['1-10', '11-50', '51-200', '201-500', '1000+']);
  });

  it.each([
    ['a range that ends below its start', '200-51'],
    ['letters', 'abc'],
    ['a bare number', '10'],
    ['a missing upper bound', '51-'],
    ['a negative lower bound', '-5+'],
    ['spaces', '51 - 200'],
    ['the empty string', ''],
  ])('gives null for %s (%s)', (_why, band) => {
    expect(employeeBandLowerBound(band)).toBeNull();
  });
});

describe('categoryNamed', () => {
  it('reads a category in any case, in its own spelling', () => {
    expect(categoryNamed('customer support')).toBe('Customer Support');
    expect(categoryNamed('hr')).toBe('HR');
    expect(categoryNamed('Finance')).toBe('Finance');
  });

  it('names none for any other text', () => {
    expect(categoryNamed('Gardening')).toBeUndefined();
    expect(categoryNamed('Finance ')).toBeUndefined();
  });
});
