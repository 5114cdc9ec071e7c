"""numba's cache of a kernel is stale once any source it compiles in changes, not only its own
file (:mod:`perceptrons._compile.numba_cache`)."""

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import perceptrons
from perceptrons._compile import numba_cache as _kernel_cache
from perceptrons._compile import stamps as _sources
from perceptrons._jit import intern

#: hash_strings (intern.py) compiles in murmur3_32 (murmur.py): it prints its table and whether
#: numba loaded it from the cache
SCRIPT = """
import json
import numpy as np
from perceptrons._jit.intern import hash_strings
data = np.frombuffer(b"abcdefgh", dtype=np.uint8)
table = np.full(16, -1, dtype=np.int64)
hash_strings(data, np.arange(8), np.arange(1, 9), table)
print(json.dumps([table.tolist(), hash_strings.stats.cache_hits.get(hash_strings.signatures[0], 0)]))
"""


def test_kernels_are_stamped_with_every_source():
    locator = intern.hash_strings._cache._impl.locator
    assert type(locator).__module__ == _kernel_cache.__name__
    assert locator.get_source_stamp()[1] == _kernel_cache.sources_digest()


def test_kernels_import_only_what_the_stamp_covers():
    """A kernel module that imported another module of the package would compile in code the
    stamp does not cover: the kernels may import only each other and ``IMPORTED``."""
    allowed = {f"perceptrons.{name.removesuffix('.py').replace('/', '.')}" for name in _sources.IMPORTED}
    allowed.add(_kernel_cache.__name__)  # installed by the package's __init__; no kernel calls it
    jit = Path(perceptrons.__file__).parent / "_jit"
    for path in jit.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                if name.split(".")[0] == "perceptrons":
                    assert name.startswith("perceptrons._jit") or name in allowed, f"{path.name} imports {name}"


def test_a_kernel_outside_the_package_keeps_numbas_locator(tmp_path):
    script = tmp_path / "other.py"
    script.write_text("import numba\n@numba.njit(cache=True)\ndef f(x):\n    return x\n")
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import perceptrons._jit, other; "
        "print(type(other.f._cache._impl.locator).__module__)"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "numba.core.caching"


@pytest.mark.slow
def test_a_changed_helper_in_another_file_recompiles_the_kernel(tmp_path):
    """The upgrade case: intern.py unchanged, murmur.py changed, the old cache files left in
    place.  Before, numba loaded hash_strings' old machine code and hashed the old way."""
    copy = tmp_path / "perceptrons"
    shutil.copytree(Path(perceptrons.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT")}
    env["PYTHONPATH"] = str(tmp_path)

    def run():
        out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True)
        return json.loads(out.stdout)

    before, hits = run()
    assert hits == 0
    assert any((copy / "_jit" / "__pycache__").glob("intern.hash_strings-*.nbi"))
    assert run() == [before, 1]  # unchanged sources: the cache is used
    murmur = copy / "_jit" / "murmur.py"
    text = murmur.read_text()
    seeded = "h = np.uint64(seed) & _M32"
    assert seeded in text
    murmur.write_text(text.replace(seeded, "h = (np.uint64(seed) + np.uint64(1)) & _M32"))
    after, hits = run()
    assert hits == 0  # compiled again, not loaded
    assert after != before
    assert run() == [after, 1]  # and cached again under the new stamp
