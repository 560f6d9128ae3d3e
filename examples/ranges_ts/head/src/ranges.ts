export type Range = [number, number];

/**
 * Merges overlapping half-open ranges [start, end) into the fewest
 * ranges covering the same points, in a single pass.
 */
export function mergeRanges(ranges: Range[]): Range[] {
  const out: Range[] = [];
  for (const [start, end] of ranges) {
    if (end <= start) {
      throw new RangeError(`empty range [${start}, ${end})`);
    }
    const last = out[out.length - 1];
    if (last && start <= last[1]) {
      last[1] = Math.max(last[1], end);
    } else {
      out.push([start, end]);
    }
  }
  return out;
}
