"""Modes: what the server lists instead of one tool per operation, for APIs too large for a context (``search``)."""
