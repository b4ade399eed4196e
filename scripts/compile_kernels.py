"""Compile every CUDA kernel in the bank's GPU exercises with nvcc, without a GPU.

    python3 scripts/compile_kernels.py [--arch sm_90] [--only SLUG ...]

A kernel exercise's reference.py, starter.py and solution.py build their kernels at
import as cupy.RawKernel(source, name) or cupy.RawModule(code=source). This script
imports each file with a recording stand-in for `cupy` (NumPy's names, and
RawKernel and RawModule constructors that keep the source), writes every source to a
.cu file and compiles it to PTX with `nvcc -arch=<arch> --ptx`, then checks that
the PTX defines the kernel the file launches. ElementwiseKernel and ReductionKernel
bodies are fragments that CuPy wraps in its own code, so they are listed as not
compiled here. It compiles; it does not run anything: a race or a missing
__syncthreads() compiles fine (tests/questions/test_bank_gpu_kernels.py runs the
kernels on the CPU, scripts/gpu_check.sh on a GPU).

Without nvcc on PATH (or in $CUDA_HOME/bin) it says so and exits 0: CI does not
depend on it. Prints PASS or FAIL per kernel; exits 1 when any kernel fails.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
BANK = ROOT / "questions" / "bank"
FILES = ("reference.py", "starter.py", "solution.py")


class Recorder:
    """A stand-in `cupy` module whose kernel constructors record their sources."""

    def __init__(self):
        self.kernels = []  # (source, kernel name or None for a whole RawModule)
        self.fragments = []  # names of ElementwiseKernel / ReductionKernel bodies

    def module(self):
        cupy = types.ModuleType("cupy")
        cupy.__dict__.update({name: getattr(np, name) for name in dir(np) if not name.startswith("__")})
        recorder = self

        class RawKernel:
            def __init__(self, code, name, *args, **kwargs):
                recorder.kernels.append((code, name))

        class RawModule:
            def __init__(self, code=None, *args, **kwargs):
                recorder.kernels.append((code, None))

        def fragment(kind):
            def build(*args, **kwargs):
                name = kwargs.get("name") or (args[-1] if args and isinstance(args[-1], str) else kind)
                recorder.fragments.append(name)

            return build

        cupy.RawKernel = RawKernel
        cupy.RawModule = RawModule
        cupy.ElementwiseKernel = fragment("ElementwiseKernel")
        cupy.ReductionKernel = fragment("ReductionKernel")
        return cupy


def find_nvcc():
    found = shutil.which("nvcc")
    if found:
        return found
    candidate = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "bin" / "nvcc"
    return str(candidate) if candidate.exists() else None


def gpu_exercises(only):
    for question in sorted(BANK.glob("*/*/question.md")):
        if not re.search(r"^target: gpu$", question.read_text(), re.MULTILINE):
            continue
        folder = question.parent
        if only and folder.name not in only:
            continue
        yield folder


def record(path):
    recorder = Recorder()
    saved = sys.modules.get("cupy")
    sys.modules["cupy"] = recorder.module()
    try:
        exec(compile(path.read_text(), str(path), "exec"), {"__name__": path.stem})
    finally:
        if saved is None:
            del sys.modules["cupy"]
        else:
            sys.modules["cupy"] = saved
    return recorder


def compile_one(nvcc, arch, source, name, workdir, label):
    cu = workdir / f"{label.replace('/', '_')}.cu"
    cu.write_text(source)
    ptx = cu.with_suffix(".ptx")
    done = subprocess.run(
        [nvcc, f"-arch={arch}", "--ptx", "-std=c++17", str(cu), "-o", str(ptx)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        return f"nvcc failed:\n{done.stderr.strip()[-3000:]}"
    if name and not re.search(rf"\.entry\s+{re.escape(name)}\s*\(", ptx.read_text()):
        return f'the PTX defines no kernel named {name} (is it declared extern "C" __global__?)'
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default="sm_90", help="the GPU architecture to compile for (default sm_90, Hopper)")
    parser.add_argument("--only", action="append", default=[], help="an exercise's slug (repeatable)")
    args = parser.parse_args()
    nvcc = find_nvcc()
    if not nvcc:
        print("SKIP  compiling the bank's kernels: nvcc is not installed here (install the CUDA toolkit to run this)")
        return 0
    failed = 0
    with tempfile.TemporaryDirectory(prefix="hotpath-kernels-") as tmp:
        for folder in gpu_exercises(set(args.only)):
            for file in FILES:
                recorder = record(folder / file)
                label = f"{folder.name}/{file}"
                for index, (source, name) in enumerate(recorder.kernels):
                    problem = compile_one(nvcc, args.arch, source, name, Path(tmp), f"{label}.{index}")
                    what = f"{label} {name or 'RawModule'}"
                    if problem:
                        failed += 1
                        print(f"FAIL  {what}: {problem}")
                    else:
                        print(f"PASS  {what} ({args.arch})")
                for name in recorder.fragments:
                    print(f"SKIP  {label} {name}: an ElementwiseKernel/ReductionKernel body, compiled only by CuPy")
    print("FAIL  some kernels did not compile" if failed else "PASS  every kernel compiled")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
