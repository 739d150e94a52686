"""Build of the compiled core ``backgammon._bgcore`` (metadata is in pyproject.toml)."""

import glob
import os
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

# Portable optimisation only: no -march=native in wheels.
if sys.platform == "win32":
    compile_args = ["/O2"]
else:
    compile_args = ["-O3", "-fno-strict-aliasing", "-g0"]  # no debug info: a 5x smaller module
if os.environ.get("BACKGAMMON_NATIVE") == "1":  # local builds only, never wheels
    compile_args.append("-march=native")

extensions = [
    Extension(
        "backgammon._bgcore",
        sources=["src/bgcore/_bgcore.pyx"],
        include_dirs=["src/bgcore", numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=compile_args,
        depends=sorted(glob.glob("src/bgcore/*.h") + glob.glob("src/bgcore/*.pxd")),
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=["src/bgcore"],
        compiler_directives={"language_level": "3"},
    ),
)
