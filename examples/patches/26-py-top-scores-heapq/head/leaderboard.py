"""The leaderboard shown after each round."""

import heapq


def top_players(scores: dict[str, int], n: int) -> list[str]:
    """Return the names of the n best players, best first.

    Equal scores are ordered by name, so the board does not flicker between
    refreshes.
    """
    if not isinstance(n, int):
        raise TypeError(f"n must be an int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"n must not be negative, got {n}")
    # A heap selects n of m players in O(m log n) instead of sorting all m.
    best = heapq.nsmallest(n, scores.items(), key=lambda item: (-item[1], item[0]))
    return [name for name, _ in best]
