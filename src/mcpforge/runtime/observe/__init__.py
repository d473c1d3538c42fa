"""Observability: what a running server reports of each call (``observer``): the audit log, metrics, traces."""
