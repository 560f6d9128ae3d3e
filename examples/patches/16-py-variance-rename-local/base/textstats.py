"""Small statistics over lists of numbers."""


def mean(values: list[float]) -> float:
    """Return the arithmetic mean of values; an empty list has none."""
    if not values:
        raise ValueError("mean of an empty list")
    return sum(values) / len(values)


def variance(values: list[float]) -> float:
    """Return the population variance of values."""
    m = mean(values)
    acc = 0.0
    for v in values:
        acc += (v - m) ** 2
    return acc / len(values)
