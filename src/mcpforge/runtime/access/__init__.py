"""Access and sign-in: who may call the MCP endpoint, and whose API credentials each call uses.

The endpoint's protection (``endpoint``: static tokens, or OAuth through ``oauth``); the API's
credentials (``credentials``) chosen per call (``callers``); per-user sign-in to OAuth APIs
(``signin``, its pages in ``signin_pages``, token requests in ``grants``, encrypted records in ``store``).
"""
