"""Issue 16 item 3: the project's import graph has no cycle.

The graph is read from the source with ``ast``: one node per module of the project's packages, one edge per
``import`` / ``from ... import`` run when the module is loaded (the module's top level, ``if``/``try`` blocks
included; ``if TYPE_CHECKING:`` blocks and imports inside functions excluded). ``from pkg import name`` is an
edge to ``pkg.name`` when that is a module, else to ``pkg``.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("pairing", "draughts", "tournaments", "config", "testkit", "bench")


def module_names():
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts:
                continue
            is_package = parts[-1] == "__init__"
            modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return modules


def _runtime_imports(body):
    """The import statements a module runs when loaded."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            test = node.test
            if getattr(test, "id", None) == "TYPE_CHECKING" or getattr(test, "attr", None) == "TYPE_CHECKING":
                yield from _runtime_imports(node.orelse)
                continue
            yield from _runtime_imports(node.body)
            yield from _runtime_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody):
                yield from _runtime_imports(block)
        elif isinstance(node, ast.With):
            yield from _runtime_imports(node.body)


def _every_import(body):
    """Every import statement, those inside functions too (run later, when called), but not ``if TYPE_CHECKING:``."""
    for node in _runtime_imports(body):
        yield node
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    yield inner


def import_graph(modules=None, lazy=False):
    """Module -> the project's modules it imports when loaded (``lazy``: also those its functions import)."""
    modules = modules if modules is not None else module_names()
    statements = _every_import if lazy else _runtime_imports

    def known(name):
        """The module ``name`` names, or the nearest package above it that is in the project."""
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for name, (path, is_package) in modules.items():
        package = name if is_package else name.rpartition(".")[0]
        targets = set()
        for node in statements(ast.parse(path.read_text(encoding="utf-8")).body):
            if isinstance(node, ast.Import):
                targets.update(known(alias.name) for alias in node.names)
                continue
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(part for part in [*base, node.module or ""] if part)
            else:
                source = node.module or ""
            for alias in node.names:
                full = f"{source}.{alias.name}" if source else alias.name
                targets.add(full if full in modules else known(source))
        targets.discard(None)
        targets.discard(name)
        graph[name] = targets
    return graph


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan, iterative), each sorted."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_of_the_project_is_in_an_import_cycle():
    graph = import_graph()
    assert {"pairing.dutch", "draughts.board", "tournaments.standings.compute", "tournaments.rounds.services"} <= set(
        graph
    )
    assert "tournaments.rounds.selectors" in graph["tournaments.rounds.services"]  # the edges are really read
    assert cycles(graph) == []


def test_an_import_inside_a_function_hides_no_cycle_but_the_known_one():
    """A function-level import runs when called, so it cannot make a loading cycle; it can still tie two modules
    into one. The only such pair: ``Position.from_fen``/``Position.fen`` (draughts.board) call the FEN reader and
    writer of draughts.notation, which builds positions."""
    assert cycles(import_graph(lazy=True)) == [["draughts.board", "draughts.notation"]]


def test_the_packages_depend_one_way():
    """The pure engines import nothing of the Django app; bench/ and testkit/ import nothing from tests/."""
    graph = import_graph()
    top = {}
    for module, targets in graph.items():
        top.setdefault(module.split(".")[0], set()).update(t.split(".")[0] for t in targets)
    assert {pkg: sorted(deps - {pkg}) for pkg, deps in top.items() if pkg in ("pairing", "draughts")} == {
        "pairing": [],
        "draughts": [],
    }
    assert "tests" not in top["bench"] | top["testkit"]
    assert cycles({pkg: deps - {pkg} for pkg, deps in top.items()}) == []


@pytest.mark.parametrize(
    ("sources", "expected"),
    [
        # a -> b -> c -> a, with d outside the cycle
        ({"a": "from . import b", "b": "import c", "c": "from a import x", "d": "import a"}, [["a", "b", "c"]]),
        # an import inside a function or under TYPE_CHECKING runs no module code at load time: no cycle
        (
            {
                "a": "import b",
                "b": "def f():\n    import a\n",
                "c": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import d\n",
                "d": "import c",
            },
            [],
        ),
        # under try/except and if, still run at load time
        ({"a": "try:\n    import b\nexcept ImportError:\n    pass\n", "b": "if True:\n    import a\n"}, [["a", "b"]]),
    ],
)
def test_the_graph_finds_a_cycle_when_there_is_one(tmp_path, sources, expected):
    modules = {}
    for name, text in sources.items():
        path = tmp_path / f"{name}.py"
        path.write_text(text, encoding="utf-8")
        modules[name] = (path, False)
    assert cycles(import_graph(modules)) == expected


def test_the_lazy_graph_sees_an_import_inside_a_function(tmp_path):
    sources = {"a": "import b", "b": "class K:\n    def f(self):\n        from a import x\n"}
    modules = {}
    for name, text in sources.items():
        (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
        modules[name] = (tmp_path / f"{name}.py", False)
    assert cycles(import_graph(modules)) == []
    assert cycles(import_graph(modules, lazy=True)) == [["a", "b"]]


# Features depend one way (issue 24): (the modules of a feature, what they may never reach, even through another
# module or an import inside a function).
ONE_WAY = [
    (
        "tournaments.standings",
        "tournaments.homologation",
        "the standings never ask the homologation (rights is passed in)",
    ),
    ("tournaments.public", ".services", "the public pages read; they never import a service (a write)"),
]


def _in(module, prefix):
    if prefix.startswith("."):  # a kind of module of any feature: tournaments.<feature>.services, tournaments.services
        return module.endswith(prefix) or f"{prefix}." in module
    return module == prefix or module.startswith(f"{prefix}.")


# The URL maps route to every feature's views (the public URLs include the players' result reports, a write): they
# are wiring, not pages, so the one-way rules start from the pages' own modules.
URL_MAPS = {"tournaments.public.urls"}


def one_way_violations(graph, source, forbidden):
    """(module of ``source``, path of imports to a module of ``forbidden``) for each module that reaches one."""
    found = []
    for start in sorted(m for m in graph if _in(m, source) and m not in URL_MAPS):
        paths, todo = {start: [start]}, [start]
        while todo:
            node = todo.pop(0)
            for child in sorted(graph.get(node, ())):
                if child in paths:
                    continue
                paths[child] = [*paths[node], child]
                if _in(child, forbidden):
                    found.append((start, " -> ".join(paths[child])))
                    todo = []
                    break
                todo.append(child)
    return found


@pytest.mark.parametrize(("source", "forbidden", "why"), ONE_WAY, ids=["standings-homologation", "public-services"])
def test_features_depend_one_way(source, forbidden, why):
    graph = import_graph(lazy=True)
    assert any(_in(m, source) for m in graph), source
    assert one_way_violations(graph, source, forbidden) == [], why


def test_the_one_way_check_finds_a_path_through_another_module(tmp_path):
    sources = {
        "app.standings.compute": "from app.core import util",
        "app.core.util": "def f():\n    from app.homologation import report\n",
        "app.homologation.report": "",
        "app.public.views": "from app.rounds import services",
        "app.rounds.services": "",
    }
    modules = {}
    for name, text in sources.items():
        path = tmp_path / f"{name}.py"
        path.write_text(text, encoding="utf-8")
        modules[name] = (path, False)
    graph = import_graph(modules, lazy=True)
    assert one_way_violations(graph, "app.standings", "app.homologation") == [
        ("app.standings.compute", "app.standings.compute -> app.core.util -> app.homologation.report")
    ]
    assert one_way_violations(graph, "app.public", ".services") == [
        ("app.public.views", "app.public.views -> app.rounds.services")
    ]
    assert one_way_violations(import_graph(modules), "app.standings", "app.homologation") == []  # lazy only
