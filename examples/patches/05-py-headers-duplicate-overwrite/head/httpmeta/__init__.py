"""Parsing of the metadata lines that precede a message body."""
