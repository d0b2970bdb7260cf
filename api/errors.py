"""The flat error family of the API package (authentication, keys, rate limits, request shape)."""

from __future__ import annotations

from procura.errors import ProcuraError


class ApiError(ProcuraError):
    """Base of every error the API package raises on purpose."""


class AuthenticationError(ApiError):
    """No API key, a malformed key, or a key that is unknown, revoked or expired (HTTP 401)."""


class RateLimitedError(ApiError):
    """The key exceeded its per-minute request budget (HTTP 429).

    Attributes:
        retry_after_s: whole seconds until the next request would be admitted.
    """

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(f"rate limit exceeded; retry after {retry_after_s} s")
        self.retry_after_s = retry_after_s


class TenantInRequestError(ApiError):
    """The request tried to name a tenant; the tenant comes only from the API key (HTTP 422)."""

    def __init__(self, location: str) -> None:
        super().__init__(f"{location}: tenant_id is not accepted in requests; the tenant comes from the API key")
        self.location = location


class KeyManagementError(ApiError):
    """An API key cannot be created or revoked as asked (bad tenant, scopes, principal or unknown key)."""
