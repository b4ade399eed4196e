"""Measure this grading host's memory bandwidth and one-core compute peak, on the
CPU the code under test gets, and keep them for the reports graded here:

    python manage.py measure_host [--gpu] [--json]

Every worker does the same when it starts (submissions.tasks.measure_host_limits; a GPU
worker also measures its device, manage.py gpu_worker). `--gpu` measures the GPU
the GPU sandbox exposes: device memory bandwidth and a float32 compute peak.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from grader import host_limits


class Command(BaseCommand):
    help = "Measure this host's memory bandwidth and compute peak (the roofline's roofs) and store them."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="print the measurement as one JSON object")
        parser.add_argument(
            "--gpu", action="store_true", help="measure the GPU (through CuPy, in the GPU sandbox) instead of the CPU"
        )

    def handle(self, *args, **options):
        try:
            limits = host_limits.measure_and_store("gpu" if options["gpu"] else "cpu")
        except host_limits.MeasurementFailed as exc:
            raise CommandError(str(exc)) from None
        if options["json"]:
            self.stdout.write(json.dumps(limits, sort_keys=True))
            return
        if options["gpu"]:
            self.stdout.write(f"{limits['host']}: {limits['device']} (CuPy {limits['cupy']})")
            self.stdout.write(
                f"Device memory bandwidth: {limits['bandwidth_gbs']:.1f} GB/s (copy {limits['copy_gbs']:.1f}, triad {limits['triad_gbs']:.1f})"
            )
            self.stdout.write(f"Compute peak: {limits['compute_gflops']:.0f} GFLOP/s (float32 matrix product, cuBLAS)")
            return
        self.stdout.write(
            f"{limits['host']}: {limits['cpu_model']} ({limits['logical_cpus']} logical CPUs), measured on CPU {limits['cpu']}"
        )
        self.stdout.write(
            f"Memory bandwidth: {limits['bandwidth_gbs']:.2f} GB/s (copy {limits['copy_gbs']:.2f}, triad {limits['triad_gbs']:.2f})"
        )
        self.stdout.write(
            f"One pass into a new array: {limits['fresh_pass_gbs']:.2f} GB/s (the OS clears its pages on first touch)"
        )
        self.stdout.write(f"Compute peak, one core: {limits['compute_gflops']:.2f} GFLOP/s (float64 matrix product)")
