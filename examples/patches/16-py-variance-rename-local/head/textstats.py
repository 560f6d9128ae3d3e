"""Small statistics over lists of numbers."""


def mean(values: list[float]) -> float:
    """Return the arithmetic mean of values; an empty list has none."""
    if not values:
        raise ValueError("mean of an empty list")
    return sum(values) / len(values)


def variance(values: list[float]) -> float:
    """Return the population variance of values."""
    center = mean(values)
    squared_deviations = 0.0
    for value in values:
        squared_deviations += (value - center) ** 2
    return squared_deviations / len(values)
