"""Half-open integer ranges [start, end): merging and lookups."""


def merge_ranges(ranges):
    """Merge overlapping [start, end) pairs into sorted, disjoint tuples.

    The ranges are half-open, so touching ranges such as (0, 2) and (2, 5)
    share no point and stay apart. Input order does not matter.
    """
    if ranges is None:
        raise TypeError("ranges is required")
    ordered = sorted(ranges, key=lambda r: r[0])
    out = []
    for start, end in ordered:
        if end < start:
            raise ValueError("end < start")
        if not out or start >= out[-1][1]:
            out.append([start, end])
        elif end > out[-1][1]:
            out[-1][1] = end
    return [tuple(x) for x in out]


def covers(ranges, point):
    """Report whether point lies in one of the half-open ranges."""
    return any(start <= point < end for start, end in ranges)
