# The cardhall server image: `docker compose up` runs it against PostgreSQL (docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install . && useradd --create-home cardhall
USER cardhall

EXPOSE 8000
# Migrations are applied by the server at start-up (or run `cardhall db upgrade`).
CMD ["cardhall", "serve", "--host", "0.0.0.0", "--port", "8000"]
