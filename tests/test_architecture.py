"""The tree reads as the architecture, and stays that way: no import cycles, ingest's packages
layered from the fetch client up to the source kinds, digests' packages layered from the text of
a brief up to the entry points, and API plumbing imported downward from config/api only. Read
statically (every import, also inside functions), so a lazy import cannot hide a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("config", "ingest", "digests", "inbox", "topics", "billing")

# ingest's packages, lowest first: a package may import its own layer and the ones below.
INGEST_LAYERS = [
    {"ingest.models", "ingest.canonical"},
    {"ingest.fetching"},
    {"ingest.text"},
    {"ingest.pool"},
    {"ingest.refresh"},
    {"ingest.feeds"},
    {"ingest.library"},
    {"ingest.pages", "ingest.watch", "ingest.crawl", "ingest.search", "ingest.newsletters"},
]

# digests' packages (and the few modules that sit below the rest of their package), lowest first.
DIGESTS_LAYERS = [
    {"digests.models", "digests.textwatch.models"},
    {
        "digests.narrative.summaries",
        "digests.narrative.markdown",
        "digests.narrative.reasons",
        "digests.narrative.language",
        "digests.schedules.next_run",
        "digests.schedules.words",
    },
    {"digests.ai"},
    {"digests.narrative.writer", "digests.delivery", "digests.textwatch.apprise"},
    {"digests.runs"},
    {"digests.schedules.scheduler", "digests.tasks"},
    {"digests.subscriptions", "digests.watches", "digests.textwatch", "digests.platform"},
]


def project_modules() -> dict[str, Path]:
    modules = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts:
                continue
            name = ".".join(parts)
            modules[name.removesuffix(".__init__")] = path
    return modules


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    if target in modules:
                        graph[name].add(target)
                    elif node.module in modules:
                        graph[name].add(node.module)
            elif isinstance(node, ast.Import):
                graph[name].update(alias.name for alias in node.names if alias.name in modules)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
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

    for node in graph:
        if node not in index:
            visit(node)
    return found


def layer_of(module: str, layers: list[set[str]] = INGEST_LAYERS) -> int | None:
    for depth, packages in enumerate(layers):
        if any(module == p or module.startswith(p + ".") for p in packages):
            return depth
    return None


def upward_imports(layers: list[set[str]]) -> list[str]:
    upward = []
    for module, targets in import_graph().items():
        own = layer_of(module, layers)
        if own is None:
            continue
        for target in targets:
            theirs = layer_of(target, layers)
            if theirs is not None and theirs > own:
                upward.append(f"{module} -> {target}")
    return upward


def test_no_module_imports_itself_back():
    assert cycles(import_graph()) == []


def test_the_cycle_check_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_ingest_packages_only_import_downward():
    assert upward_imports(INGEST_LAYERS) == []


def test_digests_packages_only_import_downward():
    assert upward_imports(DIGESTS_LAYERS) == []


def test_the_layer_check_finds_an_upward_import():
    layers = [{"digests.models"}, {"digests.runs"}]
    assert layer_of("digests.runs.runner", layers) == 1
    assert "digests.models -> digests.runs.runner" not in upward_imports(layers)
    assert upward_imports([{"digests.runs"}, {"digests.models"}]) != []


def test_every_ingest_package_has_a_layer_and_the_app_root_stays_small():
    packages = {p.name for p in (ROOT / "ingest").iterdir() if (p / "__init__.py").exists()} - {
        "migrations",
        "management",
        "demo",
    }
    layered = {name.split(".")[1] for layer in INGEST_LAYERS for name in layer}
    assert packages <= layered, packages - layered
    assert len(list((ROOT / "ingest").glob("*.py"))) <= 15


def test_every_digests_package_has_a_layer_and_the_app_root_stays_small():
    packages = {p.name for p in (ROOT / "digests").iterdir() if (p / "__init__.py").exists()} - {
        "migrations",
        "management",
        "templatetags",
    }
    layered = {name.split(".")[1] for layer in DIGESTS_LAYERS for name in layer}
    assert packages <= layered, packages - layered
    assert len(list((ROOT / "digests").glob("*.py"))) <= 15


def test_api_plumbing_is_imported_from_config_and_config_api_imports_no_app():
    graph = import_graph()
    from_inbox_plumbing = [
        f"{m} -> {t}"
        for m, targets in graph.items()
        if not m.startswith("inbox")
        for t in targets
        if t in {"inbox.authentication", "inbox.tokens"} and not m.startswith("config.settings")
    ]
    assert from_inbox_plumbing == []
    config_api_into_apps = [
        f"{m} -> {t}"
        for m, targets in graph.items()
        if m.startswith("config.api.") and m != "config.api.urls"
        for t in targets
        if not t.startswith("config")
    ]
    assert config_api_into_apps == []
