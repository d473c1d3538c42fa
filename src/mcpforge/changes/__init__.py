"""What changed for models and clients between two generated tool sets (``mcpforge diff``, ``--check``, the changelog).

``rules.py`` is the one table of change kinds and whether each breaks a client that calls the
tool; ``compare.py`` finds the changes between two ``tools.json`` contracts; ``report.py`` writes
them as text, JSON or Markdown and suggests the regenerated package's next version.
"""
