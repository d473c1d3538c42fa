"""Serving: the command line (``cli``), the MCP server (``server``) and HTTP mode's application (``web``)."""
