"""Talking to live MCP servers: list their tools, aggregate and convert them, run provider tool calls."""
