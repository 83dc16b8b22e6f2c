"""Security headers and what the browser client may hold (``docs/security.md``, "Sessions,
sockets and proxies"): a strict Content Security Policy on the client (nothing inline, no
framing) and on every other answer but the API explorers', ``X-Content-Type-Options``,
``Referrer-Policy``; the files in ``static/`` hold no inline script, style or handler that
such a policy would block."""

from __future__ import annotations

import re
from pathlib import Path

from livesrv import live_server

STATIC = Path(__file__).resolve().parents[2] / "static"
STRICT = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "font-src 'self'; connect-src 'self'; manifest-src 'self'; object-src 'none'; "
          "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


async def test_every_answer_carries_the_security_headers() -> None:
    async with live_server() as live, live.http as http:
        for path in ("/", "/static/js/main.js", "/api/tables", "/healthz", "/nope"):
            r = await http.get(path)
            assert r.headers["content-security-policy"] == STRICT, path
            assert r.headers["x-content-type-options"] == "nosniff", path
            assert r.headers["referrer-policy"] == "no-referrer", path
            assert r.headers["x-frame-options"] == "DENY", path
        for path in ("/docs", "/redoc"):  # FastAPI's explorers start their bundles inline
            csp = (await http.get(path)).headers["content-security-policy"]
            assert "script-src 'self' 'unsafe-inline'" in csp
            assert "frame-ancestors 'none'" in csp and "default-src 'none'" in csp


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"<style\b", re.I), "a <style> element"),
    (re.compile(r"""\sstyle\s*=\s*["']""", re.I), "a style attribute"),
    (re.compile(r"""\son[a-z]+\s*=\s*["']""", re.I), "an inline event handler"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
]
SCRIPT_INLINE = [
    (re.compile(r"""(?<![\w.-])["']?style["']?\s*:"""), "a style attribute given to h()"),
    (re.compile(r"""setAttribute\(\s*["'](style|on[a-z]+)["']"""), "a style or handler attribute"),
    (re.compile(r"\.innerHTML\s*=|insertAdjacentHTML|\beval\(|new Function\("), "markup or code from strings"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
]


def test_the_client_has_no_inline_script_style_or_handler() -> None:
    found = []
    for path in sorted(STATIC.rglob("*")):
        rules = INLINE if path.suffix == ".html" else SCRIPT_INLINE if path.suffix == ".js" else []
        text = path.read_text(encoding="utf-8") if rules else ""
        for number, line in enumerate(text.splitlines(), 1):
            found += [f"{path.relative_to(STATIC)}:{number}: {what}: {line.strip()}"
                      for pattern, what in rules if pattern.search(line)]
    assert found == []
