"""One-line summaries of a series of measurements."""


def describe(values: list[float]) -> dict[str, float]:
    """Return the min, max, mean and spread (max - min) of values."""
    if not values:
        raise ValueError("no values to describe")
    lo = min(values)
    hi = max(values)
    total = sum(values)
    count = len(values)
    return {"min": lo, "max": hi, "mean": total / count, "spread": hi - lo}
