import { describe, expect, it } from 'vitest';
import { mergeRanges } from './ranges';

describe('mergeRanges', () => {
  it('merges overlapping ranges', () => {
    expect(mergeRanges([[1, 4], [2, 6]])).toEqual([[1, 6]]);
  });
  it('keeps disjoint ranges apart', () => {
    expect(mergeRanges([[1, 2], [5, 8]])).toEqual([[1, 2], [5, 8]]);
  });
  it.each([
    [[[0, 10]], [[0, 10]]],
    [[], []],
  ])('mergeRanges(%j) is %j', (input, want) => {
    expect(mergeRanges(input as [number, number][])).toEqual(want);
  });
});
