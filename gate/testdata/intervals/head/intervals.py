"""Half-open integer intervals [start, end): the agent's patch, which drops
the sort and merges touching ranges."""


def merge_ranges(ranges):
    """Merge overlapping [start, end) pairs."""
    if ranges is None:
        raise TypeError("ranges is required")
    out = []
    for start, end in ranges:
        if end < start:
            raise ValueError("end < start")
        if not out or start > out[-1][1]:
            out.append([start, end])
        elif end > out[-1][1]:
            out[-1][1] = end
    return [tuple(x) for x in out]
