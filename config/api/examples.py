"""Request and response examples of every operation, put into the schema by the hook
`add_examples` (after the error hook, which sets every error answer's content).

Each app keeps its own table (`<app>/api_examples.py`: what is sent, to which operation, and
the status that comes back); the answers are recorded from the app itself into
`<app>/api_examples_recorded.py`, so an example is always what the server really says.

Tested (tests/config/test_api_examples.py): every operation has at least one example; each
example validates against the schema of its request and answer; and the whole table is
replayed, in order, as the demo user (staff, on Pro, with the demo's sources, subscriptions,
runs and public topic) against the API, which must give the documented status and an answer
of the same shape (the same keys and JSON types all the way down; ids and secrets may differ,
and `same` names the fields whose values must be equal too). After an intended change of an
answer, record them again:

    RECORD_API_EXAMPLES=1 .venv/bin/pytest tests/config/test_api_examples.py -p no:randomly
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from urllib.parse import parse_qsl

# Every example is made and replayed at this moment (Friday 2026-11-20, 09:00 UTC).
EXAMPLE_MOMENT = "2026-11-20T09:00:00Z"

# The tables, in the order they are replayed (later ones use what earlier ones made).
EXAMPLE_MODULES = (
    "inbox.api_examples",
    "ingest.api_examples",
    "digests.api_examples",
    "topics.api_examples",
    "billing.api_examples",
)


@dataclass(frozen=True)
class Ref:
    """A value the replay takes from what it made before (`Example.saves`, or the demo's
    `subscription_id`, `run_id`, ...); the schema shows `shown`."""

    name: str
    shown: object


@dataclass(frozen=True)
class Example:
    operation: str  # "METHOD /path" as in the schema; {name} in the path is a Ref's name
    name: str
    summary: str
    status: int
    request: dict | None = None  # JSON body; values may be Refs
    query: str = ""  # sent by the replay ({name} filled from what it made), shown in the summary
    # The answer; None: recorded from the app (`<app>/api_examples_recorded.py`).
    response: dict | list | None = None
    # The request is only sent by the replay (a refused one: not schema-valid input).
    request_in_schema: bool = True
    same: tuple[str, ...] = field(default=())  # top-level fields the replay must equal
    saves: dict[str, str] = field(default_factory=dict)  # name → "/pointer" in the answer
    # Path parameter → the name of what the replay made for it, when not the same name.
    ids: dict[str, str] = field(default_factory=dict)
    anonymous: bool = False  # sent without credentials (public operations)
    body: str | None = None  # a non-JSON body, sent as `content_type`
    content_type: str = "application/json"

    @property
    def key(self) -> str:
        return f"{self.operation} #{self.name}"


def shown(value):
    """A request as the schema shows it: every Ref replaced by its shown value."""
    if isinstance(value, Ref):
        return value.shown
    if isinstance(value, dict):
        return {key: shown(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shown(item) for item in value]
    return value


def _load() -> list[Example]:
    examples = []
    for name in EXAMPLE_MODULES:
        table = importlib.import_module(name).EXAMPLES
        try:
            recorded = importlib.import_module(f"{name}_recorded").RESPONSES
        except ModuleNotFoundError:
            recorded = {}
        for example in table:
            if example.response is None and example.key in recorded:
                example = _with_response(example, recorded[example.key])
            examples.append(example)
    return examples


def _with_response(example: Example, response) -> Example:
    from dataclasses import replace

    return replace(example, response=response)


EXAMPLES: list[Example] = _load()


def _examples_of(content: dict, media_type: str, example: Example, value) -> None:
    media = content.setdefault(media_type, {})
    media.setdefault("examples", {})[example.name] = {"summary": example.summary, "value": value}


def _summary(example: Example) -> str:
    return f"{example.summary} (?{example.query})" if example.query else example.summary


def add_examples(result, generator, request, public):
    """drf-spectacular postprocessing hook: EXAMPLES into their operations."""
    for example in EXAMPLES:
        method, path = example.operation.split(" ", 1)
        operation = result["paths"][path][method.lower()]
        content = operation.get("requestBody", {}).get("content", {})
        if example.request is not None and example.request_in_schema and content:
            _examples_of(content, "application/json", example, shown(example.request))
        if example.body is not None and example.content_type in content:
            _examples_of(content, example.content_type, example, example.body)
        answer = operation["responses"][str(example.status)]
        if example.response is not None:
            content = answer.setdefault("content", {})
            # A JSON answer, or a text one (OPML) under the answer's own media type.
            media_type = (
                "application/json"
                if not isinstance(example.response, str)
                else next((t for t in content if t != "application/json"), "text/plain")
            )
            _examples_of(content, media_type, _with_summary(example), example.response)
        else:
            # An answer without a body (204): the example is in the answer's description.
            answer["description"] = (
                f"{answer.get('description', '').rstrip()}\n\nExample: {_summary(example)}."
            ).strip()
    return result


def _with_summary(example: Example) -> Example:
    from dataclasses import replace

    return replace(example, summary=_summary(example))


# A list's page size and sync moment, where no example of the operation sends them. No made-up
# cursor: only a page's `next`/`previous` links give one.
LIST_QUERY_EXAMPLES = {"limit": 20, "updated_since": "2026-11-19T00:00:00Z"}


def _typed(value: str, rule: dict):
    kinds = rule.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "integer" in kinds and value.lstrip("-").isdigit():
        return int(value)
    if "boolean" in kinds and value in ("true", "false"):
        return value == "true"
    return value


def query_examples(operation: str) -> dict[str, str]:
    """The query parameters the replayed examples of an operation send, with their values
    (the first example's value of each; those filled in from what the replay made are not)."""
    values: dict[str, str] = {}
    for example in EXAMPLES:
        if example.operation == operation and example.query and 200 <= example.status < 300:
            for name, value in parse_qsl(example.query, keep_blank_values=True):
                if "{" not in value:
                    values.setdefault(name, value)
    return values


def add_query_examples(result, generator, request, public):
    """drf-spectacular postprocessing hook: an `example` on each query parameter a replayed
    example sends (its value there), and on a list's `limit` and `updated_since`."""
    for path, operations in result["paths"].items():
        for method, operation in operations.items():
            sent = query_examples(f"{method.upper()} {path}")
            for parameter in operation.get("parameters", []):
                if parameter["in"] != "query" or "examples" in parameter:
                    continue
                name = parameter["name"]
                if name in sent:
                    parameter["example"] = _typed(sent[name], parameter.get("schema", {}))
                elif name in LIST_QUERY_EXAMPLES:
                    parameter["example"] = LIST_QUERY_EXAMPLES[name]
    return result
