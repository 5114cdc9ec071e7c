"""The house's measures (docs/house.rst), kept from coming back: no module over 600 lines, no
compiled loop over 12 arguments, no compiled loop writing an array it unpacked from a tuple
argument outside a loop that reads it again (numba's dead-code pass can drop such a write:
:mod:`perceptrons._jit`), and no import cycle among the package's modules."""

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "perceptrons"
MAX_LINES = 600
MAX_ARGUMENTS = 12


def _modules():
    return sorted(SRC.rglob("*.py"))


def _compiled(tree):
    """The functions of a module decorated with numba's ``njit``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any("njit" in ast.unparse(d) for d in node.decorator_list):
            yield node


def test_no_module_is_over_600_lines():
    long = {str(p.relative_to(SRC)): n for p in _modules() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_no_compiled_loop_takes_more_than_12_arguments():
    wide = {
        f"{p.relative_to(SRC)}:{f.name}": len(f.args.args)
        for p in _modules()
        for f in _compiled(ast.parse(p.read_text()))
        if len(f.args.args) > MAX_ARGUMENTS
    }
    assert not wide, f"compiled loops over {MAX_ARGUMENTS} arguments (bundle arrays that belong together): {wide}"


def _unpacked_writes(f):
    """Writes, at a computed index and outside any loop that reads the array again, to names a
    tuple unpacking bound (``a, b = t``): the pattern whose writes numba may drop."""
    unpacked = set()
    for node in ast.walk(f):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple):
            unpacked |= {e.id for e in node.targets[0].elts if isinstance(e, ast.Name)}
    found = []

    def visit(node, loops):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.For, ast.While)):
                visit(child, [*loops, child])
                continue
            targets = child.targets if isinstance(child, ast.Assign) else [getattr(child, "target", None)]
            for target in targets:
                if not isinstance(target, ast.Subscript):
                    continue
                base = target.value
                while isinstance(base, ast.Subscript):
                    base = base.value
                index = target.slice.elts if isinstance(target.slice, ast.Tuple) else [target.slice]
                if not isinstance(base, ast.Name) or base.id not in unpacked:
                    continue
                if all(isinstance(i, ast.Constant) for i in index):
                    continue  # numba keeps a write at a constant index (a StaticSetItem)
                read_again = any(
                    isinstance(n, ast.Name) and n.id == base.id and isinstance(n.ctx, ast.Load)
                    for loop in loops
                    for n in ast.walk(loop)
                )
                if not read_again:
                    found.append(f"{f.name}: line {child.lineno}")
            visit(child, loops)

    visit(f, [])
    return found


def test_no_compiled_loop_writes_where_numba_may_drop_the_write():
    risky = [w for p in _modules() for f in _compiled(ast.parse(p.read_text())) for w in _unpacked_writes(f)]
    assert not risky, f"writes to unpacked tuple elements (take them by index, see perceptrons._jit): {risky}"


def test_the_write_check_finds_the_pattern_that_dropped_a_write():
    """The check is not vacuous: the stop-transition update as it was first bundled."""
    code = "@njit\ndef update(weights, y, path):\n    W, stop = weights\n    gl = y[2]\n    stop[gl] += 1.0\n"
    (f,) = _compiled(ast.parse(code))
    assert _unpacked_writes(f) == ["update: line 5"]


def _imports(path, names):
    """The package modules ``path`` imports at its top level (not inside functions)."""
    tree = ast.parse(path.read_text())
    name, modules = names[path], set(names.values())
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            for a in node.names:  # a submodule, else a name the module ``base`` defines
                out.add(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base)
    return {m for m in out if m in modules and m != name}


def _cycle(graph):
    """One import cycle of ``graph`` (module -> the modules it imports) as a list, or None."""
    done, path = set(), []

    def walk(m):
        if m in path:
            return [*path[path.index(m) :], m]
        if m in done:
            return None
        path.append(m)
        for n in sorted(graph[m]):
            found = walk(n)
            if found:
                return found
        path.pop()
        done.add(m)
        return None

    for m in sorted(graph):
        found = walk(m)
        if found:
            return found
    return None


def test_the_cycle_check_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle():
    names = {}
    for p in _modules():
        parts = ["perceptrons", *p.relative_to(SRC).with_suffix("").parts]
        names[p] = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    graph = {names[p]: _imports(p, names) for p in names}
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
