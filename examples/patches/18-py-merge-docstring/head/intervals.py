"""Half-open integer intervals [start, end)."""


def merge_ranges(ranges: list[list[int]]) -> list[list[int]]:
    """Merge overlapping [start, end) pairs into a sorted, disjoint cover.

    The input may come in any order. Touching ranges ([0, 2] and [2, 5])
    stay apart: half-open ranges that touch share no point. An inverted
    range (end < start) raises ValueError; None raises TypeError.

    >>> merge_ranges([[4, 6], [0, 1], [1, 3]])
    [[0, 1], [1, 3], [4, 6]]
    """
    if ranges is None:
        raise TypeError("ranges is required")
    ordered = sorted(ranges, key=lambda r: r[0])
    out: list[list[int]] = []
    for start, end in ordered:
        if end < start:
            raise ValueError(f"end {end} < start {start}")
        # start == previous end is touching, not overlapping: keep apart.
        if not out or start >= out[-1][1]:
            out.append([start, end])
        elif end > out[-1][1]:
            out[-1][1] = end
    return out


def total_length(ranges: list[list[int]]) -> int:
    """Return how many integers the ranges cover together."""
    return sum(end - start for start, end in merge_ranges(ranges))
