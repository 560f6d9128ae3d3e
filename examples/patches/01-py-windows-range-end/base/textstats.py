"""Small statistics over lists of numbers."""


def mean(values: list[float]) -> float:
    """Return the arithmetic mean of values; an empty list has none."""
    if not values:
        raise ValueError("mean of an empty list")
    return sum(values) / len(values)


def windows(values: list[float], size: int) -> list[list[float]]:
    """Return every run of size consecutive values, in order.

    windows([1, 2, 3], 2) == [[1, 2], [2, 3]]. A size larger than the list
    gives no window; a size below 1 is an error.
    """
    if size < 1:
        raise ValueError(f"window size must be at least 1, got {size}")
    return [values[i : i + size] for i in range(len(values) - size + 1)]


def moving_average(values: list[float], size: int) -> list[float]:
    """Return the mean of every window of size values."""
    return [mean(w) for w in windows(values, size)]
