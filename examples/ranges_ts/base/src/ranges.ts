export type Range = [number, number];

/**
 * Merges overlapping half-open ranges [start, end) into the fewest
 * ranges covering the same points. Callers pass ranges in any order;
 * touching ranges ([1, 3] and [3, 5]) stay apart, as the points they
 * cover do not overlap.
 */
export function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Range[] = [];
  for (const [start, end] of sorted) {
    if (end <= start) {
      throw new RangeError(`empty range [${start}, ${end})`);
    }
    const last = out[out.length - 1];
    if (last && start < last[1]) {
      last[1] = Math.max(last[1], end);
    } else {
      out.push([start, end]);
    }
  }
  return out;
}
