# Hotpath's web server, Celery workers and beat (see docker-compose.yml).
#   target "app":        web, worker-cpu and beat (grades in sandbox containers via the Docker socket)
#   target "gpu-worker": the same app plus CuPy, for `manage.py gpu_worker`
# The grading sandboxes are separate images: sandbox_images/.
#
# Built by `make images` (scripts/build_images.sh), which first makes the base image
# (scripts/build_base_image.sh: Debian bookworm from debootstrap, no registry needed)
# and the wheels (scripts/build_wheelhouse.sh: on the host, into .cache/wheels/).
# Where a registry is reachable, a standard base works too:
#   docker build --build-arg BASE_IMAGE=python:3.11-slim-bookworm --target app -t hotpath-app .
ARG BASE_IMAGE=hotpath-base:bookworm

# The virtual environment is built in its own stage, so the wheels never reach the final image.
FROM ${BASE_IMAGE} AS app-venv
COPY requirements/web.txt /tmp/requirements.txt
COPY .cache/wheels/web /tmp/wheels
RUN python3 -m venv /opt/venv \
    && /opt/venv/bin/pip install --quiet --no-index --find-links /tmp/wheels -r /tmp/requirements.txt \
    && /opt/venv/bin/pip uninstall --quiet -y pip setuptools


FROM ${BASE_IMAGE} AS app
# pg_dump and psql for `manage.py backup` and `manage.py restore` (ops/backup.py), of the server's version (15).
RUN apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-client-15 >/dev/null \
    && rm -rf /var/lib/apt/lists/*
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOTPATH_RUN_DIR=/var/lib/hotpath \
    STATIC_MANIFEST=1 \
    PATH=/opt/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
COPY --from=app-venv /opt/venv /opt/venv
WORKDIR /app
COPY . .
# collectstatic's settings make the run folder's broker directories: keep them out of the image.
RUN rm -rf .cache \
    && HOTPATH_RUN_DIR=/tmp/collectstatic python manage.py collectstatic --noinput \
    && rm -rf /tmp/collectstatic \
    && useradd --system --uid 10001 --home-dir /var/lib/hotpath --create-home hotpath \
    && install -d -o hotpath -g hotpath /var/lib/hotpath/cpu-slots
USER hotpath
EXPOSE 8000
CMD ["gunicorn", "interview_platform.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]


# CuPy is only here to find the GPU and name it; grading itself runs in the GPU sandbox image.
# The CUDA libraries are PyPI wheels (requirements/gpu.txt, scripts/build_wheelhouse.sh --gpu); the driver comes
# from the host (NVIDIA Container Toolkit). .dockerignore leaves those 2 GB of wheels out of every build's context:
# drop its `.cache/wheels/gpu` line to build this target (not done by make images, nor tried on our GPU-less hosts).
FROM app-venv AS gpu-worker-venv
COPY .cache/wheels/gpu /tmp/gpu-wheels
RUN /opt/venv/bin/python -m ensurepip --upgrade >/dev/null \
    && /opt/venv/bin/pip install --quiet --no-index --find-links /tmp/gpu-wheels "cupy-cuda12x[ctk]" cuda-pathfinder \
    && /opt/venv/bin/pip uninstall --quiet -y pip setuptools

FROM app AS gpu-worker
COPY --from=gpu-worker-venv /opt/venv /opt/venv
CMD ["python", "manage.py", "gpu_worker"]
