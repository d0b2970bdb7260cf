"""The one settings object of Procura (environment prefix ``PROCURA_``, plus ``DATABASE_URL``)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal
from urllib.parse import quote, urlsplit, urlunsplit

from pydantic import AliasChoices, Field, SecretStr, computed_field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent

_LOCAL_SECRET_PREFIX = "procura-local-"

#: The login roles the migrations create; their passwords come from settings.
OWNER_ROLE = "procura_owner"
APP_ROLE = "procura_app"
#: The NOLOGIN group of the per-tenant BI logins (``procura bi create-login``); it holds their grants.
BI_ROLE = "procura_bi"


class Settings(BaseSettings):
    """Configuration, read once from the environment (see the README's configuration table)."""

    model_config = SettingsConfigDict(env_prefix="PROCURA_", extra="ignore", frozen=True)

    environment: Literal["local", "test", "production"] = "local"
    database_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("DATABASE_URL", "PROCURA_DATABASE_URL"),
        description="Administrative URL of a user-managed server; unset = the project's own server.",
    )
    home: Path = REPO_ROOT / ".procura"
    pg_root: Path | None = Field(default=None, description="Debian 13 root for the server (default HOME/pgroot).")
    pg_host: str = "127.0.0.1"
    pg_port: int = Field(default=54329, ge=1024, le=65535)
    db_name: str | None = Field(
        default=None,
        pattern=r"^[a-z_][a-z0-9_]{0,62}$",
        description="Database name (default: the one in DATABASE_URL, else 'procura').",
    )
    debian_mirror: str | None = None

    superuser_password: SecretStr = SecretStr(_LOCAL_SECRET_PREFIX + "superuser")
    owner_password: SecretStr = SecretStr(_LOCAL_SECRET_PREFIX + "owner")
    app_password: SecretStr = SecretStr(_LOCAL_SECRET_PREFIX + "app")
    server_secret: SecretStr = Field(
        default=SecretStr(_LOCAL_SECRET_PREFIX + "server-secret"),
        description="Key of the keyed hashes: audit parameter hashes and opaque graph names.",
    )

    fx_rate_type: str = "corporate"
    slash_date_order: Literal["ask", "day_first", "month_first"] = Field(
        default="ask",
        description="How a slashed day with both parts <= 12 ('03/02/2026') is read when the question does not settle"
                    " it (router/periods.py): asked back naming both readings, or the deployment's order.",
    )
    slash_date_order_by_tenant: dict[str, Literal["ask", "day_first", "month_first"]] = Field(
        default_factory=dict,
        description="Per tenant (JSON object tenant id -> order), the order of a slashed day the question does not"
                    " settle; it wins over slash_date_order. Unset: day first when every company of the tenant"
                    " carries a legal form of a day-first country (GmbH, AG, S.A., Ltd...), else slash_date_order"
                    " (router/date_order.py).",
    )
    statement_timeout_ms: int = Field(default=5000, ge=10, le=600_000)
    row_cap: int = Field(default=10_000, ge=1, le=1_000_000)
    ingest_max_source_bytes: int = Field(default=64 * 1024 * 1024, ge=1024,
                                         description="Size limit of one ingested file or JSONL line.")

    @model_validator(mode="after")
    def _no_placeholder_secrets_outside_local(self) -> Settings:
        if self.environment == "production":
            for name in ("superuser_password", "owner_password", "app_password", "server_secret"):
                if getattr(self, name).get_secret_value().startswith(_LOCAL_SECRET_PREFIX):
                    raise ValueError(f"PROCURA_{name.upper()} is a local placeholder; set a real secret")
        return self

    @computed_field  # type: ignore[prop-decorator]
    @property
    def managed_server(self) -> bool:
        """True when Procura runs its own Postgres (no ``DATABASE_URL``)."""
        return self.database_url is None

    @property
    def root_dir(self) -> Path:
        return self.pg_root if self.pg_root is not None else self.home / "pgroot"

    @property
    def admin_url(self) -> str:
        """Superuser URL: provisioning, extensions, roles and migrations."""
        if self.database_url is not None:
            return _with_database(self.database_url, self.database_name)
        return self._url("postgres", self.superuser_password, self.database_name)

    @property
    def database_name(self) -> str:
        """The database Procura works in."""
        if self.db_name is not None:
            return self.db_name
        if self.database_url is not None:
            path = urlsplit(self.database_url).path.lstrip("/")
            if path:
                return path
        return "procura"

    def maintenance_url(self) -> str:
        """Admin URL on the ``postgres`` database, for CREATE/DROP DATABASE."""
        return _with_database(self.admin_url, "postgres")

    @property
    def owner_url(self) -> str:
        """The pipeline role (DDL, dbt, ingestion)."""
        return self._role_url(OWNER_ROLE, self.owner_password)

    @property
    def app_url(self) -> str:
        """The serving role: API, tools, metric queries (subject to RLS)."""
        return self._role_url(APP_ROLE, self.app_password)

    def login_url(self, role: str, password: SecretStr) -> str:
        """The URL of any login role of this server and database (e.g. a BI login of ``procura.bi``)."""
        return self._role_url(role, password)

    def with_database(self, db_name: str) -> Settings:
        """The same settings pointed at another database of the same server."""
        return self.model_copy(update={"db_name": db_name})

    def _role_url(self, role: str, password: SecretStr) -> str:
        parts = urlsplit(self.admin_url)
        host = parts.hostname or self.pg_host
        port = f":{parts.port}" if parts.port else ""
        netloc = f"{quote(role)}:{quote(password.get_secret_value(), safe='')}@{host}{port}"
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))

    def _url(self, user: str, password: SecretStr, db: str) -> str:
        secret = quote(password.get_secret_value(), safe="")
        return f"postgresql://{user}:{secret}@{self.pg_host}:{self.pg_port}/{db}"


def _with_database(url: str, db_name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + db_name, parts.query, ""))


def redact_url(url: str) -> str:
    """The URL with its password replaced, for printing."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(":" + parts.password + "@", ":***@", 1)
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, created once."""
    return Settings()
