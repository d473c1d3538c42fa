"""The generated server's runtime: real, typed, tested modules, copied byte for byte into every package.

Every module here except this one is copied verbatim into ``src/<package>/`` of a generated project,
beside its ``tools.json`` (see :mod:`.contract`). The modules import only each other (relatively),
the standard library, and the generated project's dependencies (``mcp``, ``httpx`` and what ``mcp``
brings: ``anyio``, ``jsonschema``, ``starlette``, ``uvicorn``, ``pyjwt``); never the rest of mcpforge.
"""
