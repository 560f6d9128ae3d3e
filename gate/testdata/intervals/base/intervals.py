"""Half-open integer intervals [start, end): the reviewed version."""


def merge_ranges(ranges):
    """Merge overlapping [start, end) pairs; touching pairs stay apart."""
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
