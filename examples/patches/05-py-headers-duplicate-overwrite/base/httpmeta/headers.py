"""Header lines of the form "Name: value"."""


def parse_headers(lines: list[str]) -> dict[str, str]:
    """Return the headers as a dict keyed by lower-cased name.

    A name given twice is refused: two Content-Length lines are how a
    request gets smuggled past a proxy, so neither value may win silently.
    """
    headers: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        name, sep, value = line.partition(":")
        if not sep or not name.strip():
            raise ValueError(f"line {number}: want 'Name: value', got {line!r}")
        key = name.strip().lower()
        if key in headers:
            raise ValueError(f"line {number}: header {key!r} given twice")
        headers[key] = value.strip()
    return headers


def content_length(lines: list[str]) -> int:
    """Return the Content-Length header as an int, 0 when absent."""
    return int(parse_headers(lines).get("content-length", "0"))
