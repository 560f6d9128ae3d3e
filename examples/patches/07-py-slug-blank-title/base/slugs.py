"""URL slugs for article titles."""

import re

_NON_WORD = re.compile(r"[^a-z0-9]+")


def slugify(title: str) -> str:
    """Return the title as a URL slug: "Hello, World!" -> "hello-world".

    A title with no letters or digits has no slug; it is refused rather
    than given an empty one that would collide with the index page.
    """
    if not title.strip():
        raise ValueError("title is blank")
    slug = _NON_WORD.sub("-", title.lower()).strip("-")
    if not slug:
        raise ValueError(f"title {title!r} has no letters or digits")
    return slug
