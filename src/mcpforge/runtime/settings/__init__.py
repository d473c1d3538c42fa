"""Settings: every environment variable the server reads, parsed and checked from one table (``table``)."""
