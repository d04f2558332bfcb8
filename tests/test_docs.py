"""The README is a front door and docs/ holds the rest; this keeps both honest without a database.

- README.md stays at most 250 lines and links every page in docs/;
- every relative link in README.md and docs/*.md resolves to a file, and a `#anchor` to a
  heading of that file (GitHub's slugs);
- every environment variable config/ reads through the helpers of config/env.py is documented in
  docs/configuration.md, and every variable that page's table names is read;
- every code path (`digests/runs/runner.py`, `ingest/pool/`) and dotted name
  (`digests.runs.runner.execute_run`) the pages mention exists, so a move that forgets the docs
  fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
CONFIGURATION = DOCS / "configuration.md"
README_MAX_LINES = 250
APPS = ("config", "ingest", "digests", "inbox", "topics", "billing")
# Directories the docs name that only exist once a test has run.
GENERATED = {"tests/browser/screenshots/"}

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)
PATH = re.compile(
    r"(?<![\w/.$-])((?:"
    + "|".join((*APPS, "tests", "bin", "static", "locale", "docs"))
    + r")/[\w./-]*)"
)
DOTTED = re.compile(r"^(?:" + "|".join(APPS) + r")(?:\.\w+)+(?:\(\))?$")


def doc_files() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def prose(text: str) -> str:
    """The text without fenced code blocks, where `# comment` is no heading and [x](y) no link."""
    return FENCE.sub("", text)


def github_slug(heading: str) -> str:
    text = CODE_SPAN.sub(lambda m: m.group(0)[1:-1], heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link's text only
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Heading slugs as GitHub makes them, with -1, -2… for repeats."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(prose(path.read_text())):
        slug = github_slug(heading)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(path: Path) -> list[str]:
    return LINK.findall(CODE_SPAN.sub("", prose(path.read_text())))


def test_readme_is_a_front_door():
    lines = README.read_text().count("\n")
    assert lines <= README_MAX_LINES, (
        f"README.md has {lines} lines, at most {README_MAX_LINES}: move detail to a docs/ page"
    )


def test_readme_links_every_docs_page():
    linked = {
        (README.parent / target.partition("#")[0]).resolve()
        for target in links(README)
        if target.startswith("docs/")
    }
    unlinked = [rel(page) for page in sorted(DOCS.glob("*.md")) if page.resolve() not in linked]
    assert not unlinked, f"docs pages the README does not link: {', '.join(unlinked)}"


def test_relative_links_resolve():
    broken = []
    for doc in doc_files():
        for target in links(doc):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
                continue  # https:, mailto: and the like
            file_part, _, anchor = target.partition("#")
            linked = (doc.parent / file_part).resolve() if file_part else doc
            if not linked.exists():
                broken.append(f"{rel(doc)}: link to {target!r}: no file {file_part!r}")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(
                    f"{rel(doc)}: link to {target!r}: no heading #{anchor} in {rel(linked)}"
                )
    assert not broken, "broken links:\n" + "\n".join(broken)


def env_helpers(env_module: ast.Module) -> set[str]:
    """The functions of config/env.py that read the environment (env_str, env_int, …)."""
    return {
        node.name
        for node in env_module.body
        if isinstance(node, ast.FunctionDef) and "os.environ" in ast.unparse(node)
    }


def variables_read() -> dict[str, str]:
    """Every variable config/ reads, through the helpers or os.environ, and where."""
    env_py = ROOT / "config" / "env.py"
    helpers = env_helpers(ast.parse(env_py.read_text()))
    assert helpers, "config/env.py defines no function that reads os.environ: update this test"
    found: dict[str, str] = {}
    computed = []
    for module in sorted((ROOT / "config").rglob("*.py")):
        tree = ast.parse(module.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = ast.unparse(node.func)
            name = func.rpartition(".")[2]
            if not (name in helpers or func in ("os.environ.get", "os.getenv")):
                continue
            first = node.args[0]
            where = f"{rel(module)}:{node.lineno}"
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.setdefault(first.value, where)
            elif not (module == env_py and func in ("os.environ.get", "os.getenv")):
                computed.append(f"{where}: {ast.unparse(node)}")
    assert not computed, (
        "environment variables read by a computed name cannot be checked against the docs:\n"
        + "\n".join(computed)
    )
    return found


def documented_variables() -> set[str]:
    return set(re.findall(r"`([A-Z][A-Z0-9_]*[A-Z0-9])`", CONFIGURATION.read_text()))


def test_every_variable_read_is_documented():
    read = variables_read()
    assert len(read) > 50, f"found only {len(read)} variables in config/: update this test"
    missing = sorted(name for name in read if name not in documented_variables())
    assert not missing, "environment variables read but not in docs/configuration.md: " + ", ".join(
        f"{name} ({read[name]})" for name in missing
    )


def test_every_documented_variable_is_read():
    read = variables_read()
    listed = set()
    for row in re.findall(r"^\| (.+?) \|", CONFIGURATION.read_text(), re.M):
        listed.update(re.findall(r"`([A-Z][A-Z0-9_]*[A-Z0-9])`", row))
    stale = sorted(listed - set(read))
    assert not stale, "docs/configuration.md lists variables config/ never reads: " + ", ".join(
        stale
    )


def test_code_paths_exist():
    missing = []
    for doc in doc_files():
        for match in PATH.finditer(doc.read_text()):
            path = match.group(1).rstrip(".,")
            if path in GENERATED or any(part.isupper() for part in re.split(r"[/.]", path)):
                continue  # generated at test time, or a placeholder such as tests/bench/NAME.py
            if not (ROOT / path).exists():
                missing.append(f"{rel(doc)}: {path}")
    assert not missing, "paths named in the docs that do not exist:\n" + "\n".join(missing)


def defines(module: Path, name: str) -> bool:
    tree = ast.parse(module.read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                return True
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                return True
        elif isinstance(node, ast.Import | ast.ImportFrom) and any(
            (alias.asname or alias.name.split(".")[0]) == name for alias in node.names
        ):
            return True
    return False


def dotted_problem(dotted: str) -> str | None:
    parts = dotted.removesuffix("()").split(".")
    for end in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:end])
        module = (
            base.with_suffix(".py") if base.with_suffix(".py").exists() else base / "__init__.py"
        )
        if module.exists():
            break
    rest = parts[end:]
    if not rest:
        return None
    if end == 1 and rest[0].isdigit():  # a migration: ingest.0003
        if any((ROOT / parts[0] / "migrations").glob(f"{rest[0]}_*.py")):
            return None
        return f"no migration {rest[0]} in {parts[0]}/migrations/"
    if end == 1 and rest[0][:1].isupper():  # a model by its label: billing.CreditTransaction
        models = ROOT / parts[0] / "models.py"
        return None if defines(models, rest[0]) else f"no model {rest[0]} in {rel(models)}"
    if defines(module, rest[0]):
        return None
    return f"{rel(module)} defines no {rest[0]}"


def test_dotted_names_exist():
    missing = []
    for doc in doc_files():
        for span in CODE_SPAN.findall(doc.read_text()):
            dotted = span[1:-1]
            if DOTTED.match(dotted) and (problem := dotted_problem(dotted)):
                missing.append(f"{rel(doc)}: `{dotted}`: {problem}")
    assert not missing, "dotted names in the docs that do not exist:\n" + "\n".join(missing)
