"""Compile every CUDA kernel in the bank's GPU exercises, without a GPU.

    python3 scripts/compile_kernels.py [--arch sm_90] [--only SLUG ...] [--nvrtc PATH]

A kernel exercise's reference.py, starter.py and solution.py build their kernels at
import as cupy.RawKernel(source, name) or cupy.RawModule(code=source). This script
imports each file with a recording stand-in for `cupy` (NumPy's names, and
RawKernel and RawModule constructors that keep the source) and compiles every
source twice:

- with NVRTC, the runtime compiler CuPy itself uses for RawKernel, to PTX for
  compute_<arch> (found as --nvrtc, $NVRTC_LIBRARY, the system's libnvrtc, or the
  `nvidia-cuda-nvrtc` wheel's, e.g. `pip install --target DIR nvidia-cuda-nvrtc`
  then PYTHONPATH=DIR), checking that the kernel the file launches is defined;
- with `nvcc -arch=<arch> --ptx` (on PATH or in $CUDA_HOME/bin), the same check.

ElementwiseKernel and ReductionKernel bodies are fragments that CuPy wraps in its
own code, so they are listed as not compiled here. It compiles; it runs nothing: a
race or a missing __syncthreads() compiles fine (tests/questions/
test_bank_gpu_kernels.py runs the kernels on the CPU, scripts/gpu_check.sh on a GPU).

A compiler that is not installed is skipped with a message, and with neither the
script exits 0: CI does not depend on it. Prints PASS, FAIL or SKIP per kernel and
compiler; exits 1 when any kernel fails to compile.
"""

import argparse
import ctypes
import ctypes.util
import importlib.util
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


def find_nvrtc(explicit):
    """The path of a loadable libnvrtc, or None."""
    candidates = [explicit, os.environ.get("NVRTC_LIBRARY"), ctypes.util.find_library("nvrtc")]
    home = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    candidates += sorted(str(path) for path in home.glob("lib64/libnvrtc.so*"))
    spec = importlib.util.find_spec("nvidia")
    for root in spec.submodule_search_locations if spec and spec.submodule_search_locations else ():
        candidates += sorted(str(path) for path in Path(root).glob("*/lib/libnvrtc.so*"))
    for candidate in candidates:
        if candidate and "builtins" not in candidate:
            try:
                ctypes.CDLL(candidate)
            except OSError:
                continue
            return candidate
    return None


class Nvrtc:
    """NVRTC through its C API: source to PTX, as CuPy compiles a RawKernel."""

    def __init__(self, path, arch):
        self.library = ctypes.CDLL(path)
        self.options = [f"--gpu-architecture=compute_{arch.removeprefix('sm_')}".encode(), b"--std=c++17"]

    def compile(self, source, name):
        lib = self.library
        program = ctypes.c_void_p()
        if lib.nvrtcCreateProgram(ctypes.byref(program), source.encode(), b"kernel.cu", 0, None, None):
            return "nvrtcCreateProgram failed"
        try:
            options = (ctypes.c_char_p * len(self.options))(*self.options)
            status = lib.nvrtcCompileProgram(program, len(self.options), options)
            size = ctypes.c_size_t()
            lib.nvrtcGetProgramLogSize(program, ctypes.byref(size))
            log = ctypes.create_string_buffer(size.value + 1)
            lib.nvrtcGetProgramLog(program, log)
            if status:
                return f"NVRTC failed:\n{log.value.decode(errors='replace').strip()[-3000:]}"
            lib.nvrtcGetPTXSize(program, ctypes.byref(size))
            ptx = ctypes.create_string_buffer(size.value + 1)
            lib.nvrtcGetPTX(program, ptx)
            return missing_entry(ptx.value.decode(errors="replace"), name)
        finally:
            lib.nvrtcDestroyProgram(ctypes.byref(program))


def missing_entry(ptx, name):
    if name and not re.search(rf"\.entry\s+{re.escape(name)}\s*\(", ptx):
        return f'the PTX defines no kernel named {name} (is it declared extern "C" __global__?)'
    return None


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


def compile_with_nvcc(nvcc, arch, source, name, cu):
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
    return missing_entry(ptx.read_text(), name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default="sm_90", help="the GPU architecture to compile for (default sm_90, Hopper)")
    parser.add_argument("--only", action="append", default=[], help="an exercise's slug (repeatable)")
    parser.add_argument("--nvrtc", help="the path of libnvrtc.so (else found as the docstring says)")
    args = parser.parse_args()
    compilers = {}
    nvrtc_path = find_nvrtc(args.nvrtc)
    if nvrtc_path:
        nvrtc = Nvrtc(nvrtc_path, args.arch)
        compilers["nvrtc"] = lambda source, name, cu: nvrtc.compile(source, name)
    else:
        print("SKIP  NVRTC: no libnvrtc found (pip install --target DIR nvidia-cuda-nvrtc, then --nvrtc)")
    nvcc = find_nvcc()
    if nvcc:
        compilers["nvcc"] = lambda source, name, cu: compile_with_nvcc(nvcc, args.arch, source, name, cu)
    else:
        print("SKIP  nvcc: not installed here (install the CUDA toolkit to run it)")
    if not compilers:
        print("SKIP  compiling the bank's kernels: no CUDA compiler here")
        return 0
    failed = 0
    with tempfile.TemporaryDirectory(prefix="hotpath-kernels-") as tmp:
        for folder in gpu_exercises(set(args.only)):
            for file in FILES:
                recorder = record(folder / file)
                label = f"{folder.name}/{file}"
                for index, (source, name) in enumerate(recorder.kernels):
                    cu = Path(tmp) / f"{folder.name}.{file}.{index}.cu"
                    for compiler, compile_one in compilers.items():
                        problem = compile_one(source, name, cu)
                        what = f"{label} {name or 'RawModule'} ({compiler}, {args.arch})"
                        if problem:
                            failed += 1
                            print(f"FAIL  {what}: {problem}")
                        else:
                            print(f"PASS  {what}")
                for name in recorder.fragments:
                    print(f"SKIP  {label} {name}: an ElementwiseKernel/ReductionKernel body, compiled only by CuPy")
    print("FAIL  some kernels did not compile" if failed else f"PASS  every kernel compiled ({', '.join(compilers)})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
