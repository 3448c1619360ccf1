"""Issue 16 item 3: homologation is split into its conditions (reads) and its report, and no import cycle goes
through it. The graph is read from the source (every ``import`` and ``from ... import``, also those inside
functions), so a lazy import cannot hide a cycle."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tournaments"


def module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph():
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts}
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                base = f"{base}.{node.module}" if node.level and node.module else base if node.level else node.module
                targets.add(base)
                targets.update(f"{base}.{alias.name}" for alias in node.names)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def reaches(graph, start, goal):
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        if node not in seen:
            seen.add(node)
            todo.extend(graph.get(node, ()))
    return False


def test_homologation_is_conditions_and_report_and_in_no_import_cycle():
    graph = import_graph()
    assert {"tournaments.homologation.conditions", "tournaments.homologation.report"} <= set(graph)
    # the standings never ask the homologation: the rights are passed in (issue 24)
    standings = [m for m in graph if m.startswith("tournaments.standings")]
    assert standings and not any(reaches(graph, m, "tournaments.homologation.conditions") for m in standings)
    # the report calls the standings' public functions; the conditions never need the standings
    assert "tournaments.standings" in graph["tournaments.homologation.report"]
    assert not reaches(graph, "tournaments.homologation.conditions", "tournaments.standings")
    # recording the export is a service, and no module of homologation imports a service
    assert "tournaments.homologation.services" in graph
    homologation = [m for m in graph if m.startswith("tournaments.homologation")]
    for module in homologation + ["tournaments.homologation.services", "tournaments.homologation.workbook"]:
        assert not any(reaches(graph, dep, module) for dep in graph[module]), f"{module} is in an import cycle"


def test_the_report_uses_no_private_standings_function():
    source = (PACKAGE / "homologation" / "report.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert not [n for n in names if n.startswith("_")]
