# The cardhall server image. `docker compose up --build` runs it against PostgreSQL
# (docker-compose.yml); alone it keeps its games in SQLite under the /data volume:
#   docker build -t cardhall . && docker run -p 8000:8000 -v cardhall-data:/data cardhall
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
# setup.py copies static/ into the installed package (cardhall/static): the browser client.
COPY pyproject.toml setup.py MANIFEST.in README.md ./
COPY src ./src
COPY static ./static
RUN pip install . \
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
# Liveness: /healthz answers while the process does (curl is not in python:slim).
# Readiness for a load balancer is GET /readyz (docs/operations.md).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status == 200 else 1)"]
# Migrations are applied by the server at start-up (or run `cardhall db upgrade`).
CMD ["cardhall", "serve", "--host", "0.0.0.0", "--port", "8000"]
