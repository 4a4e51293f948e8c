"""Counts in words: "1 game", "2 games". One function, so that every line
arena prints agrees in number with its count."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and the noun in its number: ``nouns`` where the plural is
    not the noun with an s (default)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"
