"""Provider formats of tool definitions."""
