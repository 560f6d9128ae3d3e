"""Half-open integer ranges [start, end): merging and lookups."""


def merge_ranges(ranges):
    """Merge overlapping [start, end) pairs in a single pass."""
    if ranges is None:
        raise TypeError("ranges is required")
    out = []
    for start, end in ranges:
        if end < start:
            raise ValueError("end < start")
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [tuple(x) for x in out]


def covers(ranges, point):
    """Report whether point lies in one of the half-open ranges."""
    return any(start <= point < end for start, end in ranges)
