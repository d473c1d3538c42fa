"""Calling the API: arguments turned into a request (``request``), sent (``transport``), answered (``api``)."""
