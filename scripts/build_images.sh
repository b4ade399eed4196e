#!/usr/bin/env bash
# `make images`: everything a Docker deployment runs, built here from nothing
# (no registry is needed; see README, "Production"):
#   hotpath-base:bookworm        scripts/build_base_image.sh (debootstrap, cached)
#   .cache/wheels/               scripts/build_wheelhouse.sh (pip on this host, cached)
#   hotpath-app:latest           Dockerfile, target app (web, workers, beat)
#   hotpath-sandbox-cpu:latest   sandbox_images/cpu/Dockerfile (one container per grading run)
#   hotpath-postgres, -redis, -mailcatcher   deploy/services.Dockerfile (the rest of docker-compose.yml)
# Installs and starts the engine first where it is missing and we may (scripts/ensure_docker.sh).
# --gpu: also the GPU sandbox image (about 2 GB of CUDA wheels; of use only on a GPU host). The gpu-worker
# target of Dockerfile is not built here: with the legacy builder its context would carry those wheels too.
set -euo pipefail
cd "$(dirname "$0")/.."

GPU=0
[ "${1:-}" = "--gpu" ] && GPU=1

scripts/ensure_docker.sh
scripts/build_base_image.sh
if [ "$GPU" = 1 ]; then scripts/build_wheelhouse.sh --gpu; else scripts/build_wheelhouse.sh; fi

build() {
  local tag="$1"; shift
  local started=$SECONDS
  echo "Building $tag..."
  docker build --quiet "$@" -t "$tag" . >/dev/null
  echo "  $tag in $((SECONDS - started)) s"
}

build hotpath-app:latest --target app
build hotpath-sandbox-cpu:latest -f sandbox_images/cpu/Dockerfile
for service in postgres redis mailcatcher; do
  build "hotpath-$service:latest" -f deploy/services.Dockerfile --target "$service"
done
if [ "$GPU" = 1 ]; then
  # .dockerignore keeps the 2 GB of GPU wheels out of every other build; this one gets a context
  # of its own (tar on stdin: the Dockerfile, the requirements and the GPU wheels only).
  started=$SECONDS
  echo "Building hotpath-sandbox-gpu:latest..."
  tar -c sandbox_images/gpu/Dockerfile requirements/sandbox.txt requirements/gpu.txt .cache/wheels/gpu \
    | docker build --quiet -f sandbox_images/gpu/Dockerfile -t hotpath-sandbox-gpu:latest - >/dev/null
  echo "  hotpath-sandbox-gpu:latest in $((SECONDS - started)) s"
fi
docker image ls --filter reference='hotpath-*'
