# The stack's other services, built from the same local base as everything else
# (no registry is needed), one target each; `make images` tags them
# hotpath-postgres, hotpath-redis and hotpath-mailcatcher. Debian bookworm's own packages.
# With a registry, the official postgres:15 and redis:7 images take the same settings.
ARG BASE_IMAGE=hotpath-base:bookworm

FROM ${BASE_IMAGE} AS postgres
# No cluster at install time: the entrypoint makes one in the volume on first start.
RUN mkdir -p /etc/postgresql-common \
    && echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.conf \
    && apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null \
    && rm -rf /var/lib/apt/lists/* \
    && install -d -o postgres -g postgres -m 0700 /var/lib/postgresql/data \
    && install -d -o postgres -g postgres -m 2775 /var/run/postgresql
COPY deploy/postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
USER postgres
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["postgres-entrypoint"]


FROM ${BASE_IMAGE} AS redis
RUN apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null \
    && rm -rf /var/lib/apt/lists/* \
    && install -d -o redis -g redis -m 0750 /data
USER redis
WORKDIR /data
EXPOSE 6379
# Reached only on the stack's private network; the broker's queue survives a restart (AOF).
CMD ["redis-server", "--bind", "0.0.0.0", "--protected-mode", "no", "--dir", "/data", "--appendonly", "yes"]


FROM ${BASE_IMAGE} AS mailcatcher
RUN apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-aiosmtpd >/dev/null \
    && rm -rf /var/lib/apt/lists/*
COPY deploy/mailcatcher.py /usr/local/bin/mailcatcher
USER 65534:65534
EXPOSE 1025 8025
CMD ["python3", "/usr/local/bin/mailcatcher"]
