"""A non-editable install (``pip install .``, what the Docker image does) serves the browser
client: ``static/`` is packaged as ``cardhall/static`` (``setup.py``) and
``Settings.resolved_static_dir()`` finds it."""

from __future__ import annotations

import subprocess
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
from fastapi.testclient import TestClient
import cardhall
from cardhall.config import Settings
from cardhall.server.app import create_app
settings = Settings(database_url="memory://", gc_tuning=False)
static = settings.resolved_static_dir()
assert static is not None and static.parent == __import__("pathlib").Path(cardhall.__file__).parent, static
with TestClient(create_app(settings)) as client:
    r = client.get("/")
    assert r.status_code == 200 and "<html" in r.text.lower(), (r.status_code, r.text[:200])
    assert client.get("/static/js/main.js").status_code == 200
print("OK", static)
"""


@pytest.mark.slow
def test_pip_install_dot_serves_the_browser_client(tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", str(ROOT), "httpx"],
                             capture_output=True, text=True, timeout=540, check=False)
    assert install.returncode == 0, install.stderr[-3000:]
    run = subprocess.run([str(python), "-c", CHECK], capture_output=True, text=True,
                         timeout=120, check=False, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "OK" in run.stdout and "site-packages" in run.stdout, run.stdout
