# Hotpath's web server and Celery workers (see docker-compose.yml).
#   target "app":        web and worker-cpu (grades in sandbox containers via the Docker socket)
#   target "gpu-worker": the same app on a CUDA base with CuPy, for `manage.py gpu_worker`
# The grading sandboxes are separate images: sandbox_images/.

FROM python:3.11-slim-bookworm AS app
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOTPATH_RUN_DIR=/var/lib/hotpath
WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
RUN python manage.py collectstatic --noinput \
    && useradd --system --uid 10001 --home-dir /var/lib/hotpath --create-home hotpath
USER hotpath
EXPOSE 8000
CMD ["gunicorn", "interview_platform.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]


FROM nvidia/cuda:12.6.3-runtime-ubuntu22.04 AS gpu-worker
ENV DEBIAN_FRONTEND=noninteractive \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOTPATH_RUN_DIR=/var/lib/hotpath \
    PATH=/opt/venv/bin:$PATH
RUN apt-get update \
    && apt-get install -y --no-install-recommends software-properties-common gpg-agent \
    && add-apt-repository -y ppa:deadsnakes/ppa \
    && apt-get update \
    && apt-get install -y --no-install-recommends python3.11 python3.11-venv \
    && apt-get purge -y software-properties-common gpg-agent \
    && apt-get autoremove -y \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.txt .
# CuPy is only here to find the GPU and name it; grading itself runs in the sandbox image.
# It is installed after the app's pins, in its own step, so CuPy may settle NumPy on a version it supports.
RUN python3.11 -m venv /opt/venv \
    && pip install -r requirements.txt \
    && pip install cupy-cuda12x==14.2.0
COPY . .
RUN useradd --system --uid 10001 --home-dir /var/lib/hotpath --create-home hotpath
USER hotpath
CMD ["python", "manage.py", "gpu_worker"]
