# The cardhall server image. `docker compose up --build` runs it against PostgreSQL
# (docker-compose.yml); alone it keeps its games in SQLite under the /data volume:
#   docker build -t cardhall . && docker run -p 8000:8000 -v cardhall-data:/data cardhall
# The base image by digest (a tag moves; a digest is one image). To take a newer one, look it
# up (`docker buildx imagetools inspect python:3.11-slim`) and change both lines together.
FROM python:3.11-slim@sha256:9c900dea9e8fb7e16277c179b555cc72d29a352dbc33cff48ad5a0412fd5bfc7

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
# setup.py copies static/ into the installed package (cardhall/static): the browser client.
COPY pyproject.toml requirements.lock setup.py MANIFEST.in README.md ./
COPY src ./src
COPY static ./static
RUN pip install -c requirements.lock . \
    && useradd --create-home --uid 10001 cardhall \
    && mkdir -p /data && chown cardhall:cardhall /data

# A writable home for the SQLite file; docker-compose.yml overrides the URL with PostgreSQL.
# The table log's spill (steps sent during a database outage, replayed at the next start:
# docs/operations.md) lives on the same volume, so a new container finds it.
ENV CARDHALL_DATABASE_URL=sqlite+aiosqlite:////data/cardhall.db \
    CARDHALL_LOG_SPILL_PATH=/data/cardhall-log.spill \
    CARDHALL_LOG_FORMAT=json
VOLUME /data
USER cardhall

EXPOSE 8000
# Healthy while GET /readyz answers 200 (ready, or degraded but serving; curl is not in
# python:slim): compose starts the balancer only once the nodes are healthy. /healthz stays
# the liveness probe for an orchestrator that restarts (docs/operations.md, "Health endpoints").
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2).status == 200 else 1)"]
# Migrations are applied by the server at start-up (or run `cardhall db upgrade`).
CMD ["cardhall", "serve", "--host", "0.0.0.0", "--port", "8000"]
