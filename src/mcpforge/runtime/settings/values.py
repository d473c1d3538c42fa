"""The server's settings once read: one typed value per row of the settings table (:mod:`.table`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["Settings"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """The server's configuration, parsed and checked (see :data:`SETTINGS` for each field's meaning)."""

    base_url: str
    timeout: float = 30.0
    max_result_tokens: int = 20_000
    max_response_bytes: int = 5_000_000
    stream_seconds: float = 10.0
    retries: int = 2
    retry_max_wait: float = 30.0
    page_size: int = 0
    toolsets: tuple[str, ...] = ()
    mode: str | None = None
    dynamic: bool | None = None
    code_timeout: float = 30.0
    code_max_calls: int = 50
    code_max_memory: int = 256
    code_max_output: int = 1_000_000
    transport: str = "stdio"
    host: str = "127.0.0.1"
    port: int = 8000
    stateless: bool = False
    json_response: bool = False
    log_level: str = "WARNING"
    audit_log: str = ""
    metrics: bool = False
    metrics_port: int = 0
    auth_tokens: tuple[str, ...] = ()
    auth_tokens_file: str = ""
    oauth_issuer: str = ""
    oauth_resource: str = ""
    oauth_scopes: tuple[str, ...] = ()
    oauth_jwks_url: str = ""
    oauth_introspection_url: str = ""
    oauth_leeway: int = 60
    oauth_client_id: str = ""
    oauth_client_secret: str = ""
    allow_unauthenticated: bool = False
    allowed_hosts: tuple[str, ...] = ()
    per_user_credentials: tuple[str, ...] = ()
    per_user_fallback: bool = False
    public_url: str = ""
    token_key: str = ""
    redis_url: str = ""
    token_dir: str = ""
    sign_in_client_auth: str = "auto"
    sign_in_wait: float = 60.0
    sign_in_days: int = 30
    shutdown_drain: float = 0.0
    shutdown_timeout: int = 30
    tools_cache_ttl: int = 3600
    bridge: bool = False
    bridge_token: str = ""
    bridge_max_body: int = 1_000_000
    # variable -> value of the API's credentials (and token URL overrides), only those that are set
    credentials: Mapping[str, str] = field(default_factory=dict)
