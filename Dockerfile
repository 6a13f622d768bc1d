# The application image: one image, two targets.
#   web     (default): the web server, beat, the webhook worker and the migration; no game maths
#   worker           : the same plus the game-maths extra (numba, numpy) for RTP computation
# Every process starts through `python -m casino.serve <name>` (casino/serve.py), the entry
# points the test suite runs (tests/ops/test_serve.py). See README "Deploying".
ARG PYTHON_VERSION=3.11

FROM python:${PYTHON_VERSION}-slim AS web
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CASINO_DATA_DIR=/var/lib/casino \
    STATIC_ROOT=/app/static \
    PROMETHEUS_MULTIPROC_DIR=/run/casino-metrics
RUN useradd --system --uid 10001 --user-group --home-dir /app --no-create-home casino
WORKDIR /app
COPY requirements.txt requirements-maths.txt requirements-otel.txt ./
RUN pip install -r requirements.txt
COPY . .
# Static files are collected at build time (settings need these values to load; nothing
# connects anywhere during collectstatic).
RUN SECRET_KEY=build DATABASE_URL=postgres://build@localhost/build CELERY_BROKER_URL=memory:// \
        python manage.py collectstatic --no-input --verbosity 0 \
    && mkdir -p /var/lib/casino /run/casino-metrics \
    && chown casino:casino /var/lib/casino /run/casino-metrics
USER casino
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/v1/health/live/', timeout=2)"
ENTRYPOINT ["python", "-m", "casino.serve"]
CMD ["web"]

FROM web AS worker
USER root
RUN pip install -r requirements-maths.txt
USER casino
HEALTHCHECK NONE
CMD ["worker"]
