"""Pure JSON Schema work: bundling ``$defs``, output shapes, keyword lists (:mod:`.keywords`).

Nothing here knows about OpenAPI; the modules import only each other and the runtime's shared
``$defs`` follower (:mod:`mcpforge.runtime.results.defs`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["JsonSchema"]

JsonSchema = Mapping[str, Any] | bool
