"""docs/assistants.md lists every tool with every argument the server announces, and the kind
(read, write, confirmed) it really is."""

from __future__ import annotations

from pathlib import Path

from inbox.assistants.registry import TOOLS
from inbox.assistants.server import mcp_server
from tests.inbox.assistants.conftest import in_a_thread_of_its_own

DOC = Path(__file__).resolve().parents[3] / "docs" / "assistants.md"


def test_the_docs_list_every_tool_its_arguments_and_its_kind():
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("| `"):  # the tools table comes first; later tables name tools too
            rows.setdefault(line.split("|")[1].strip().strip("`"), line)
    tools = in_a_thread_of_its_own(mcp_server().list_tools)
    assert len(tools) == len(TOOLS) >= 20
    kinds = {spec.name: spec for spec in TOOLS}
    for tool in tools:
        row = rows.get(tool.name)
        assert row, f"{tool.name} is not in docs/assistants.md"
        for argument in tool.input_schema.get("properties", {}):
            assert f"`{argument}`" in row, (tool.name, argument)
        spec = kinds[tool.name]
        kind = row.split("|")[2].strip()
        expected = "read" if not spec.write else "write, confirmed" if spec.confirm else "write"
        assert kind == expected, tool.name
