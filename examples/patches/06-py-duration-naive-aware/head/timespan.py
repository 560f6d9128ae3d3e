"""Durations between ISO 8601 timestamps."""

from datetime import datetime, timezone


def _parse(stamp: str) -> datetime:
    """Parse an ISO 8601 timestamp; one without an offset is taken as UTC."""
    moment = datetime.fromisoformat(stamp)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment


def duration_seconds(start: str, end: str) -> float:
    """Return the seconds from start to end.

    Logs from the old collector carry no offset and are in UTC; logs from
    the new one carry "+00:00". Both kinds meet in one report.
    """
    begin, finish = datetime.fromisoformat(start), datetime.fromisoformat(end)
    if finish < begin:
        raise ValueError(f"end {end} is before start {start}")
    return (finish - begin).total_seconds()
