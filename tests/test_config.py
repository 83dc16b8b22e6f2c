"""Settings refuse values the server cannot run with (a rate of 0 used to start a server whose
every socket then failed in its token bucket)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from cardhall.config import Settings


@pytest.mark.parametrize(("field", "value"), [
    ("ws_rate_per_second", 0), ("ws_rate_burst", 0), ("max_tables", -1), ("max_tables", 0),
    ("idle_table_ttl_seconds", -5), ("turn_timeout_seconds", 0), ("ws_outbound_queue", 0),
    ("port", 70_000), ("default_starting_stack", 0), ("abandon_after_seconds", 0),
    ("abandon_after_seconds", -1), ("abandon_after_seconds", 86_401),
    ("gc_threshold0", 50), ("gc_freeze_interval_seconds", 0), ("gc_full_collect_seconds", 0),
])
def test_bad_settings_are_refused_naming_the_field(field: str, value: float) -> None:
    with pytest.raises(ValidationError, match=field):
        Settings(**{field: value})


def test_bad_settings_from_the_environment_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDHALL_WS_RATE_PER_SECOND", "0")
    with pytest.raises(ValidationError, match="ws_rate_per_second"):
        Settings()


def test_abandon_after_seconds_defaults_to_a_minute() -> None:
    assert Settings().abandon_after_seconds == 300.0
    assert Settings(abandon_after_seconds=0.5).abandon_after_seconds == 0.5


@pytest.mark.parametrize("url", ["postgresql+asyncpg://cardhall:change-me@db:5432/cardhall",
                                 "postgresql+asyncpg://cardhall:Password@db/cardhall"])
def test_the_example_database_password_is_refused_at_start(url: str) -> None:
    """Issue 27 (deploy files): ``change-me`` worked as the database password."""
    with pytest.raises(ValidationError, match="placeholder"):
        Settings(database_url=url)


def test_a_real_password_and_no_password_are_accepted() -> None:
    assert Settings(database_url="postgresql+asyncpg://u:x8Jq2-Tz@db/c").database_url
    assert Settings(database_url="postgresql+asyncpg://postgres@127.0.0.1/test").database_url
    with pytest.raises(ValidationError, match="placeholder"):
        Settings(admin_token="change-me")


def test_the_example_redis_password_is_refused_at_start() -> None:
    """``deploy/cluster.env.example``'s placeholder, like the database's."""
    with pytest.raises(ValidationError, match=r"cluster\.env"):
        Settings(redis_url="redis://:change-me@redis:6379/0")
    assert Settings(redis_url="redis://:Zq8-v3Lm@redis:6379/0").redis_url
    assert Settings(redis_url="redis://127.0.0.1:6379/0").redis_url


def test_a_refused_setting_is_one_line_without_a_traceback(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from cardhall.cli import main

    monkeypatch.setenv("CARDHALL_PORT", "abc")
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "CARDHALL_PORT" in err and "[cli.bad_settings]" in err
    assert "Traceback" not in err
