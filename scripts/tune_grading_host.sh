#!/usr/bin/env bash
# Benchmark hygiene for a machine that runs grading workers (and for a bench run).
#
# A speedup is a ratio of two timings taken seconds apart, so anything that makes
# the same work cost different amounts from one second to the next shows up in the
# figure. This script applies the one host setting found to matter on the
# project's virtual machines and reports the others, which belong to whoever
# provisions the host (see docs/benchmarks.md, "Repeatability"):
#
#   free page reporting (virtio-balloon): the guest hands freed memory back to the
#     hypervisor, which discards it; the next allocation then faults it in again
#     through the host, at a cost that swung fivefold from second to second. An
#     exercise whose reference allocates fresh temporaries (fuse-elementwise-chain)
#     pays that cost on one side only. Where the kernel has a minimum free age
#     (page_reporting.min_free_ms), memory freed less than HOLD_MS ago stays with
#     the guest, so the next call reuses backed pages, as on a physical machine.
#     The figures depend on it far less since harness 1.12: before each call the
#     harness uses, on the runner's CPU, as much memory as that runner's last call
#     allocated (grader/harness/warm.py), so the call finds pages in use a moment
#     ago on any host; this setting spares the harness that warm-up's faults.
#   huge pages for shared memory (shmem_enabled): every input and every answer
#     crosses the sandbox in a memfd, which is shared memory. With 4 KiB pages the
#     harness spent about 0.3 s a pair at 128 MB allocating, filling and freeing
#     them (a fuse-elementwise-chain grading: 11.8 s of its own work, 5.3 s with
#     huge pages; grading_bench.py --part shmem, docs/benchmarks.md). within_size
#     gives a memfd huge pages wherever they lie wholly inside it. The figures no
#     longer depend on it on Linux 6.1 and later: the harness collapses every memfd
#     into huge pages itself (grader/harness/hugepages.py), so the code under test
#     reads its inputs through 2 MiB pages, as it reads NumPy's own arrays at a
#     learner's desk; this setting only saves the harness's own allocation work.
#   reported, not changed: transparent huge pages for ordinary memory (graded
#     code runs with NumPy's defaults and the report names the mode), SMT, the CPU model.
#
# Usage: scripts/tune_grading_host.sh [--check]   (--check changes nothing)
# Needs root to change anything; prints what it did and exits 0 either way,
# except on a failed write.
set -uo pipefail

HOLD_MS="${HOLD_MS:-30000}"
CHECK_ONLY=0
[ "${1:-}" = "--check" ] && CHECK_ONLY=1
REPORTING=/sys/module/page_reporting/parameters

read_value() { cat "$1" 2>/dev/null || echo "unavailable"; }

if [ -e "$REPORTING/min_free_ms" ]; then
  current=$(read_value "$REPORTING/min_free_ms")
  if [ "$current" -ge "$HOLD_MS" ] 2>/dev/null; then
    echo "ok       page reporting holds freed memory for ${current} ms"
  elif [ "$CHECK_ONLY" = 1 ]; then
    echo "advise   page reporting hands freed memory back after ${current} ms; run without --check (as root) to hold it ${HOLD_MS} ms"
  elif echo "$HOLD_MS" > "$REPORTING/min_free_ms" 2>/dev/null; then
    echo "changed  page reporting now holds freed memory for ${HOLD_MS} ms (was ${current} ms)"
  else
    echo "FAILED   could not write $REPORTING/min_free_ms (not root?)" >&2
    exit 1
  fi
elif [ -d "$REPORTING" ]; then
  echo "advise   free page reporting is on and this kernel has no minimum free age: turn the balloon's"
  echo "         free page reporting off in the hypervisor for grading hosts"
else
  echo "ok       no free page reporting"
fi

SHMEM_HUGE=/sys/kernel/mm/transparent_hugepage/shmem_enabled
if [ -e "$SHMEM_HUGE" ]; then
  shmem_mode=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$SHMEM_HUGE")
  case "$shmem_mode" in
    within_size|always|force)
      echo "ok       shared memory (the sandbox's memfds) gets huge pages: $shmem_mode" ;;
    *)
      if [ "$CHECK_ONLY" = 1 ]; then
        echo "advise   shared memory gets no huge pages ($shmem_mode); run without --check (as root) to set within_size"
      elif echo within_size > "$SHMEM_HUGE" 2>/dev/null; then
        echo "changed  shared memory (the sandbox's memfds) now gets huge pages: within_size (was $shmem_mode)"
      else
        echo "FAILED   could not write $SHMEM_HUGE (not root?)" >&2
        exit 1
      fi ;;
  esac
else
  echo "info     this kernel has no huge pages for shared memory"
fi

echo "info     transparent huge pages: $(read_value /sys/kernel/mm/transparent_hugepage/enabled)"
echo "info     SMT: $(read_value /sys/devices/system/cpu/smt/control)"
echo "info     CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //')"
