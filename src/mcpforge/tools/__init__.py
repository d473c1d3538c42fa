"""From operations to tool definitions."""
