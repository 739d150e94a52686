"""Build of the compiled core ``backgammon._bgcore`` (metadata is in pyproject.toml).

From a checkout Cython translates ``_bgcore.pyx``; an sdist also carries the
generated ``_bgcore.c``, so it builds without Cython too.
"""

import glob
import os
import sys

import numpy
from setuptools import Extension, setup

try:
    from Cython.Build import cythonize
except ImportError:
    cythonize = None

PYX = "src/bgcore/_bgcore.pyx"
C_FILE = "src/bgcore/_bgcore.c"  # what Cython writes beside the .pyx
if cythonize is None and not os.path.exists(C_FILE):
    sys.exit("building backgammon from a checkout needs Cython (pip install Cython), "
             f"or an sdist, which carries {C_FILE}")

# Portable optimisation only: no -march=native in wheels.
if sys.platform == "win32":
    compile_args = ["/O2"]
else:
    # no debug info: a 5x smaller module; no fused multiply-add, so float steps
    # round alike on every CPU (the quantised nets promise identical answers)
    compile_args = ["-O3", "-fno-strict-aliasing", "-g0", "-ffp-contract=off"]
if os.environ.get("BACKGAMMON_NATIVE") == "1":  # local builds only, never wheels
    compile_args.append("-march=native")

extensions = [
    Extension(
        "backgammon._bgcore",
        sources=[PYX if cythonize is not None else C_FILE],
        include_dirs=["src/bgcore", numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=compile_args,
        depends=sorted(glob.glob("src/bgcore/*.h") + glob.glob("src/bgcore/*.pxd")
                       + glob.glob("src/bgcore/*.pxi") + glob.glob("src/bgcore/nn/*.h")),
    )
]

if cythonize is not None:
    extensions = cythonize(
        extensions,
        include_path=["src/bgcore"],
        compiler_directives={"language_level": "3"},
    )

setup(ext_modules=extensions)
