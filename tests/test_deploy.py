"""The deployment files (Docker is not on the test machines, so they are checked as text):
the image serves the browser client, has a health check and a writable SQLite home; compose
logs JSON and takes its secrets from an env file."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


def dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text()


def env_files(service: dict[str, Any]) -> list[str]:
    value = service.get("env_file", [])
    return [value] if isinstance(value, str) else [v if isinstance(v, str) else v["path"]
                                                   for v in value]


def test_compose_logs_json_and_reads_secrets_from_the_documented_env_file() -> None:
    services = compose()["services"]
    app, db = services["app"], services["db"]
    assert app["environment"]["CARDHALL_LOG_FORMAT"] == "json"
    assert env_files(app) == ["deploy/compose.env"] == env_files(db)
    example = (ROOT / "deploy" / "compose.env.example").read_text()
    for key in ("POSTGRES_PASSWORD", "CARDHALL_DATABASE_URL", "CARDHALL_ADMIN_TOKEN"):
        assert re.search(rf"^{key}=", example, re.M), key
    assert "deploy/compose.env" in (ROOT / ".gitignore").read_text().splitlines()


def test_compose_has_no_password_in_clear() -> None:
    for name, service in compose()["services"].items():
        env = service.get("environment", {})
        items = env.items() if isinstance(env, dict) else (e.split("=", 1) for e in env)
        for key, value in items:
            assert "PASSWORD" not in key, (name, key)
            assert not re.search(r"://[^/@\s]+:[^/@\s]+@", str(value)), (name, key)
    text = (ROOT / "docker-compose.yml").read_text()
    assert not re.search(r"postgres(ql)?(\+asyncpg)?://\w+:\w+@", text)


def test_dockerfile_copies_what_the_build_needs_including_the_browser_client() -> None:
    text = dockerfile()
    copied = {p for line in re.findall(r"^COPY (.+)$", text, re.M) for p in line.split()[:-1]}
    assert {"pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "src", "static"} <= copied
    assert re.search(r"^RUN pip install \.", text, re.M)  # non-editable: static is packaged


def test_dockerfile_health_check_uses_python_not_curl() -> None:
    text = dockerfile()
    [check] = re.findall(r"^HEALTHCHECK (?:.*\\\n)*.*$", text, re.M)
    assert "urllib.request" in check and "/healthz" in check and "curl" not in check


def test_the_image_keeps_sqlite_in_a_volume_the_service_user_owns() -> None:
    text = dockerfile()
    assert "CARDHALL_DATABASE_URL=sqlite+aiosqlite:////data/cardhall.db" in text
    assert re.search(r"chown cardhall:cardhall /data", text)
    assert re.search(r"^VOLUME /data$", text, re.M)
    assert text.index("USER cardhall") > text.index("chown cardhall:cardhall /data")
