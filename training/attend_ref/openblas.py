"""The OpenBLAS kernel set for this CPU, for every process that runs GEMMs through OpenBLAS
(PyTorch training, the PyTorch benchmark peer, the OpenBLAS GEMM bench). Must take effect before
OpenBLAS loads, i.e. before torch is imported or the process is started.

Debian's OpenBLAS 0.3.21 does not recognise CPUs newer than itself and falls back to its SSE3
kernels ("Prescott"). On the development machine's AVX-512 Xeon, sgemm [2520x128]·[128x512] on one
thread ran at 18 GFLOP/s that way, 57 as Haswell or SkylakeX and 99 as Cooperlake; a training step
of the shipped shape took 2.99 s that way and 1.15 s as Cooperlake."""
import ctypes
import os

# (CPU flag, OpenBLAS core name), newest first: the first flag the CPU has names the kernels.
_CORES = (("avx512_bf16", "Cooperlake"), ("avx512f", "SkylakeX"), ("avx2", "Haswell"))


def best_core(cpuinfo="/proc/cpuinfo"):
    """The OpenBLAS core name for this CPU's flags, or None when it has none of them or is not Linux."""
    try:
        with open(cpuinfo) as f:
            flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    except OSError:
        return None
    return next((core for flag, core in _CORES if flag in flags), None)


def choose_core():
    """Sets OPENBLAS_CORETYPE for this process and its children unless the caller already set it.
    Returns the core in effect (None: OpenBLAS detects it itself)."""
    core = best_core()
    if core:
        os.environ.setdefault("OPENBLAS_CORETYPE", core)
    return os.environ.get("OPENBLAS_CORETYPE")


def set_threads(threads):
    """Sizes OpenBLAS's own thread pool. torch.set_num_threads sizes only OpenMP's; OpenBLAS's pool
    (OPENBLAS_NUM_THREADS, default all cores) otherwise runs beside it. Does nothing when the BLAS
    that torch loaded (libblas.so.3) is not OpenBLAS."""
    try:
        blas = ctypes.CDLL("libblas.so.3")
    except OSError:
        return
    if hasattr(blas, "openblas_set_num_threads"):
        blas.openblas_set_num_threads(threads)
