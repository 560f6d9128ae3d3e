"""Recipient lists for outgoing mail."""


def dedupe(addresses: list[str]) -> list[str]:
    """Return the addresses without repeats, first occurrence first.

    Addresses are compared exactly as given; normalising case is the
    caller's business.
    """
    # dict keeps insertion order, so its keys are the first occurrences in
    # order; this runs in C instead of a Python loop.
    return list(dict.fromkeys(addresses))


def recipients(to: list[str], cc: list[str]) -> list[str]:
    """Return everyone a message goes to, each once, To before Cc."""
    return dedupe(to + cc)
