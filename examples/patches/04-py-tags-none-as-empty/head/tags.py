"""Tags attached to a post."""

MAX_TAGS = 8


def normalize_tags(tags: list[str] | None) -> list[str]:
    """Return the tags lower-cased, trimmed, without blanks or repeats.

    None means the caller never loaded the post's tags, which is a bug in
    the caller, not a post without tags: it is refused.
    """
    out: list[str] = []
    for tag in tags or []:
        t = tag.strip().lower()
        if t and t not in out:
            out.append(t)
    if len(out) > MAX_TAGS:
        raise ValueError(f"at most {MAX_TAGS} tags, got {len(out)}")
    return out
