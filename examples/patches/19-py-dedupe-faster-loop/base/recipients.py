"""Recipient lists for outgoing mail."""


def dedupe(addresses: list[str]) -> list[str]:
    """Return the addresses without repeats, first occurrence first.

    Addresses are compared exactly as given; normalising case is the
    caller's business.
    """
    seen = set()
    out = []
    for address in addresses:
        if address not in seen:
            seen.add(address)
            out.append(address)
    return out


def recipients(to: list[str], cc: list[str]) -> list[str]:
    """Return everyone a message goes to, each once, To before Cc."""
    return dedupe(to + cc)
