"""The generated server's runtime: real, typed, tested modules, copied byte for byte into every package.

Every module here except this file is copied verbatim into ``src/<package>/`` of a generated
project, beside its ``tools.json`` (see :mod:`.contract`), keeping this layout. One folder per
concern; a module imports only its own folder, the folders before it and the two modules at the top
(``tools.json``'s :mod:`.contract` and :mod:`.redact`, which keeps secrets out of every output):

1. ``settings``: every environment variable, in one table;
2. ``results``: API responses as tool results within a token budget;
3. ``observe``: the audit log, metrics and traces;
4. ``access``: the MCP endpoint's protection, the API's credentials, per-user sign-in;
5. ``calling``: arguments to requests, requests to the API, answers to results;
6. ``modes``: what is served instead of one tool per operation (search);
7. ``agents``: the tools for OpenAI and Anthropic, their tool calls, the OpenAI bridge;
8. ``serving``: the command line, the MCP server, HTTP mode.

The modules import only each other (relatively), the standard library, and the generated
project's dependencies (``mcp``, ``httpx`` and what ``mcp`` brings: ``anyio``, ``jsonschema``,
``starlette``, ``uvicorn``, ``pyjwt``); never the rest of mcpforge. ``tests/unit/test_layers.py``
holds them to that.
"""
