"""The deployment files (Docker is not on the test machines, so they are checked as text):
the image serves the browser client, has a health check and a writable SQLite home; compose
logs JSON and takes its secrets from an env file."""

from __future__ import annotations

import ipaddress
import json
import re
from pathlib import Path
from typing import Any

import pytest
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
    # non-editable (static is packaged), held to the lock file
    assert re.search(r"^RUN pip install -c requirements\.lock \.", text, re.M)


def test_dockerfile_health_check_uses_python_not_curl() -> None:
    text = dockerfile()
    [check] = re.findall(r"^HEALTHCHECK (?:.*\\\n)*.*$", text, re.M)
    # readiness (ready or degraded: 200), so that the balancer waits for a node that serves
    assert "urllib.request" in check and "/readyz" in check and "curl" not in check


def _requirement_names(specs: list[str]) -> set[str]:
    return {re.split(r"[<>=!~\[; ]", spec, maxsplit=1)[0].lower().replace("_", "-")
            for spec in specs}


def test_every_dependency_is_pinned_in_the_lock_file_ci_and_the_image_install_from() -> None:
    """Issue 27 (deploy files): dependencies were unpinned; now one lock file holds exact
    versions and every install (make, hence .ci/run; the Dockerfile) is held to it."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = _requirement_names(project["dependencies"] + project["optional-dependencies"]["dev"])
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)$",
                           (ROOT / "requirements.lock").read_text(), re.M))
    pinned = {name.lower().replace("_", "-") for name in pins}
    assert wanted <= pinned, f"not in requirements.lock (run make lock): {wanted - pinned}"
    makefile = (ROOT / "Makefile").read_text()
    assert "pip install -q -c requirements.lock -e '.[dev]'" in makefile
    assert re.search(r"^\$\(STAMP\): pyproject\.toml requirements\.lock$", makefile, re.M)
    assert "requirements.lock" in dockerfile()


def test_the_base_image_is_pinned_by_digest() -> None:
    [base] = re.findall(r"^FROM (\S+)", dockerfile(), re.M)
    assert re.fullmatch(r"python:3\.11-slim@sha256:[0-9a-f]{64}", base), base


def test_the_image_keeps_sqlite_in_a_volume_the_service_user_owns() -> None:
    text = dockerfile()
    assert "CARDHALL_DATABASE_URL=sqlite+aiosqlite:////data/cardhall.db" in text
    assert re.search(r"chown cardhall:cardhall /data", text)
    assert re.search(r"^VOLUME /data$", text, re.M)
    assert text.index("USER cardhall") > text.index("chown cardhall:cardhall /data")


# --- cluster mode (docs/scaling.md): the compose profile and the load balancer configs

CLUSTER_SERVICES = {"app1", "app2", "redis", "postgres", "lb", "migrate"}
NGINX = ROOT / "deploy" / "nginx.conf"
HAPROXY = ROOT / "deploy" / "haproxy.cfg"


def test_the_default_compose_up_is_unchanged_by_the_cluster_profile() -> None:
    services = compose()["services"]
    default = {name for name, s in services.items() if not s.get("profiles")}
    assert default == {"db", "app"}
    assert "networks" not in services["app"] and "networks" not in services["db"]
    assert "CARDHALL_REDIS_URL" not in services["app"].get("environment", {})


def test_the_cluster_profile_has_two_nodes_on_redis_postgres_and_nginx() -> None:
    services = compose()["services"]
    profiled = {name for name, s in services.items() if "cluster" in s.get("profiles", [])}
    assert profiled == CLUSTER_SERVICES
    node_ids = set()
    for name in ("app1", "app2"):
        node = services[name]
        env = node["environment"]
        assert "CARDHALL_REDIS_URL" not in env  # with its password, in deploy/cluster.env
        assert env["CARDHALL_MIGRATE_ON_START"] == "false"  # the one-shot `migrate` does it
        # rates and socket caps per client: the nodes believe the balancer's header alone
        assert env["CARDHALL_TRUSTED_PROXIES"] == \
            services["lb"]["networks"]["cluster"]["ipv4_address"]
        assert "FORWARDED_ALLOW_IPS" not in env
        node_ids.add(env["CARDHALL_NODE_ID"])
        assert env_files(node) == ["deploy/compose.env", "deploy/cluster.env"]  # database ...
        assert node["depends_on"] == {
            "migrate": {"condition": "service_completed_successfully"},
            "redis": {"condition": "service_healthy"}}
        assert "ports" not in node  # reached through the load balancer only
        assert node["networks"] == ["cluster"]
    assert node_ids == {"app1", "app2"}
    # ... which names `db`: on the cluster network that is the cluster's own PostgreSQL
    assert services["postgres"]["networks"]["cluster"]["aliases"] == ["db"]
    assert services["postgres"]["volumes"] != services["db"]["volumes"]
    lb = services["lb"]
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in lb["volumes"]
    assert lb["depends_on"] == {n: {"condition": "service_healthy"} for n in ("app1", "app2")}
    migrate = services["migrate"]
    assert migrate["command"] == ["cardhall", "db", "upgrade"]
    assert env_files(migrate) == ["deploy/compose.env"]
    [subnet] = compose()["networks"]["cluster"]["ipam"]["config"]
    assert ipaddress.ip_address(lb["networks"]["cluster"]["ipv4_address"]) in \
        ipaddress.ip_network(subnet["subnet"])


def test_redis_of_the_cluster_profile_requires_a_password() -> None:
    redis = compose()["services"]["redis"]
    assert "--requirepass" in " ".join(redis["command"])
    assert env_files(redis) == ["deploy/cluster.env"]
    example = (ROOT / "deploy" / "cluster.env.example").read_text()
    password = re.search(r"^REDIS_PASSWORD=(\S+)$", example, re.M)
    assert password is not None
    assert re.search(rf"^CARDHALL_REDIS_URL=redis://:{password.group(1)}@redis:6379/0$",
                     example, re.M)
    assert "deploy/cluster.env" in (ROOT / ".gitignore").read_text().splitlines()


def test_nginx_resolves_the_node_names_again_and_haproxy_logs() -> None:
    nginx = directives(NGINX)
    assert re.search(r"^\s*resolver 127\.0\.0\.11 valid=\d+s", nginx, re.M)
    servers = re.findall(r"^\s*server (app\d):8000 (\w+)", nginx, re.M)
    assert servers == [("app1", "resolve"), ("app2", "resolve")]
    assert re.search(r"^\s*zone cardhall", nginx, re.M)
    image = compose()["services"]["lb"]["image"]
    version = tuple(int(x) for x in image.split(":")[1].split("."))
    assert version >= (1, 27, 3), image  # `resolve` in an upstream
    haproxy = directives(HAPROXY)
    assert re.search(r"^\s*log stdout", haproxy, re.M) and re.search(r"^\s*log global", haproxy, re.M)


def directives(path: Path) -> str:
    """The config's text without its comments."""
    return "\n".join(line.split("#", 1)[0] for line in path.read_text().splitlines())


def upstream_servers(text: str) -> list[str]:
    [block] = re.findall(r"upstream cardhall \{(.*?)\}", text, re.S)
    return re.findall(r"^\s*server (\S+)", block, re.M)


def test_nginx_balances_every_compose_node_with_websocket_upgrade() -> None:
    text = directives(NGINX)
    nodes = {s.split(":")[0] for s in upstream_servers(text)}
    assert nodes == {"app1", "app2"}
    assert "ip_hash" not in text and "sticky" not in text  # any node serves any socket
    [ws] = re.findall(r"location /ws \{(.*?)\}", text, re.S)
    assert "proxy_http_version 1.1;" in ws
    assert "proxy_set_header Upgrade $http_upgrade;" in ws
    assert "proxy_set_header Connection $connection_upgrade;" in ws
    timeout = re.search(r"proxy_read_timeout (\d+)s;", ws)
    assert timeout is not None and int(timeout.group(1)) >= 600  # long-lived sockets


def test_haproxy_checks_readyz_on_every_node_and_keeps_tunnels_open() -> None:
    text = directives(HAPROXY)
    servers = re.findall(r"^\s*server (\S+) (\S+)", text, re.M)
    assert [addr for _, addr in servers] == ["127.0.0.1:8001", "127.0.0.1:8002",
                                             "127.0.0.1:8003"]
    assert "option httpchk GET /readyz" in text and "check" in text
    assert re.search(r"^\s*timeout tunnel \d{3,}s", text, re.M)  # upgraded WebSockets
    assert "stick" not in text and "cookie" not in text


def run_checker(argv: list[str]) -> None:
    import shutil
    import subprocess

    if shutil.which(argv[0]) is None:
        pytest.skip(f"{argv[0]} is not installed here")
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_haproxy_accepts_its_config() -> None:
    run_checker(["haproxy", "-c", "-f", str(HAPROXY)])


def test_nginx_accepts_its_config(tmp_path: Path) -> None:
    # the compose node names do not resolve here: check a copy pointing at loopback ports
    # (and `resolve` goes, which names need and nginx before 1.27.3, Debian's, does not know)
    text = NGINX.read_text().replace("app1:8000", "127.0.0.1:8001").replace(
        "app2:8000", "127.0.0.1:8002").replace(" resolve ", " ")
    conf = tmp_path / "nginx.conf"
    conf.write_text(f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\n{text}")
    run_checker(["nginx", "-t", "-p", str(tmp_path), "-c", str(conf)])


def test_the_balancers_replace_a_client_s_x_forwarded_for() -> None:
    """uvicorn takes the leftmost address: a balancer that appended to the client's own header
    would let every client choose the address its rates count under."""
    nginx = NGINX.read_text()
    assert "$proxy_add_x_forwarded_for" not in nginx
    assert nginx.count("proxy_set_header X-Forwarded-For $remote_addr;") == 2
    haproxy = HAPROXY.read_text()
    assert haproxy.index("http-request del-header X-Forwarded-For") \
        < haproxy.index("option forwardfor")
    assert "option redispatch" in haproxy


PROMETHEUS = ROOT / "deploy" / "prometheus"
GRAFANA = ROOT / "deploy" / "grafana" / "cardhall.json"


def _promql_metrics(expr: str) -> set[str]:
    """The cardhall/process metric names a PromQL expression reads (bucket/count/sum suffixes
    dropped)."""
    names = set(re.findall(r"\b((?:cardhall|process)_[a-z_]+)\b", expr))
    return {re.sub(r"_(bucket|count|sum)$", "", n) for n in names}


def _documented_metrics() -> set[str]:
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text.split("## Metrics", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`((?:cardhall|process)_[a-z_]+)`", section))


def test_alerts_and_dashboard_read_only_documented_metrics() -> None:
    rules = yaml.safe_load((PROMETHEUS / "alerts.yml").read_text())
    exprs = [r["expr"] for g in rules["groups"] for r in g["rules"]]
    dashboard = json.loads(GRAFANA.read_text())
    exprs += [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    used = set().union(*map(_promql_metrics, exprs))
    assert used, "no metric found"
    assert used <= _documented_metrics(), used - _documented_metrics()
    for group in rules["groups"]:
        for rule in group["rules"]:
            assert rule["labels"]["severity"] in ("page", "ticket"), rule["alert"]
            assert rule["annotations"]["summary"], rule["alert"]


@pytest.mark.parametrize("args", [["check", "rules", "alerts.yml"],
                                  ["test", "rules", "alerts.test.yml"]])
def test_promtool_checks_and_unit_tests_the_alert_rules(args: list[str]) -> None:
    import shutil
    import subprocess

    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool not installed (Debian's prometheus package; .ci/run installs it)")
    done = subprocess.run([promtool, *args], cwd=PROMETHEUS, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
