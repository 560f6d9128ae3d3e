"""Half-open integer intervals [start, end)."""


def merge_ranges(ranges: list[list[int]]) -> list[list[int]]:
    """Merge overlapping [start, end) pairs into a sorted, disjoint cover.

    Touching ranges ([0, 2] and [2, 5]) stay apart: they share no point.
    """
    if ranges is None:
        raise TypeError("ranges is required")
    ordered = sorted(ranges, key=lambda r: r[0])
    out: list[list[int]] = []
    for start, end in ordered:
        if end < start:
            raise ValueError(f"end {end} < start {start}")
        if not out or start >= out[-1][1]:
            out.append([start, end])
        elif end > out[-1][1]:
            out[-1][1] = end
    return out


def total_length(ranges: list[list[int]]) -> int:
    """Return how many integers the ranges cover together."""
    return sum(end - start for start, end in merge_ranges(ranges))
