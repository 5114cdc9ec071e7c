"""The install's one build step: the tagger's kernels compiled ahead of time into
``perceptrons._compile.prebuilt`` (:mod:`perceptrons._compile.aot_build`).  Everything else is in
pyproject.toml.  Without a C compiler the step is skipped with a warning: the kernels are then
compiled by numba's JIT at first use, as every other kernel is.
"""

import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SRC = Path(__file__).resolve().parent / "src"
# by sys.path, not PYTHONPATH: pip's isolated build environment drops PYTHONPATH's entries
BUILD = (
    "import sys; sys.path.insert(0, sys.argv[1]); from perceptrons._compile.aot_build import main; main(sys.argv[2:])"
)


class BuildKernels(build_ext):
    """Builds the one extension with numba's pycc, in a process of its own."""

    def run(self):
        """Build; an extension that could not be built is dropped, so the install goes on."""
        inplace, self.inplace = self.inplace, False  # built in build_lib, then copied, as setuptools does
        built = []
        for ext in self.extensions:
            out = Path(self.get_ext_fullpath(ext.name)).resolve()
            out.parent.mkdir(parents=True, exist_ok=True)
            try:
                subprocess.run([sys.executable, "-c", BUILD, str(SRC), str(out)], check=True)
            except (OSError, subprocess.CalledProcessError) as error:
                print(
                    f"warning: {ext.name} not built ({error}); numba compiles its kernels at first use", file=sys.stderr
                )
            else:
                built.append(ext)
        self.extensions[:] = built
        self.inplace = inplace
        if inplace:
            self.copy_extensions_to_source()


setup(ext_modules=[Extension("perceptrons._compile.prebuilt", sources=[])], cmdclass={"build_ext": BuildKernels})
