"""A fake Anthropic Messages API on 127.0.0.1: real HTTP for the real `anthropic` client.

Answers come from a script (`queue(...)`: tool answers, malformed answers, error statuses with
`retry-after`, stalls that outlast the client's timeout) and, once the script is used up, from
`default_answer`, which writes plausible summaries, narratives and relevance scores from the
request itself. Usage is deterministic: about four characters per token of what was sent
(system, messages, tools) and of the tool input returned.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler

from django.test import override_settings

from tests.loopback import LoopbackServer

CHARS_PER_TOKEN = 4


def quiet_client_logs() -> None:
    """The SDK's HTTP client logs one INFO line per request: too many for a benchmark."""
    for name in ("httpx", "httpx2", "anthropic"):
        logging.getLogger(name).setLevel(logging.WARNING)


def tokens_for(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


@dataclass
class Answer:
    status: int = 200
    tool_input: dict | None = None  # None with status 200: a text-only (malformed) answer
    text: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    stall_seconds: float = 0.0
    stop_reason: str = "tool_use"


def tool(tool_input: dict, *, stop_reason: str = "tool_use") -> Answer:
    return Answer(tool_input=tool_input, stop_reason=stop_reason)


def text_only(text: str = "I would rather chat.") -> Answer:
    return Answer(text=text, stop_reason="end_turn")


def status(code: int, *, retry_after: str | None = None, retry_after_ms: str | None = None):
    headers = {}
    if retry_after is not None:
        headers["retry-after"] = retry_after
    if retry_after_ms is not None:
        headers["retry-after-ms"] = retry_after_ms
    return Answer(status=code, headers=headers)


def stall(seconds: float) -> Answer:
    return Answer(stall_seconds=seconds)


@dataclass
class Request:
    body: dict
    headers: dict[str, str]

    @property
    def tool_name(self) -> str:
        return (self.body.get("tool_choice") or {}).get("name", "")

    @property
    def user_text(self) -> str:
        content = self.body["messages"][-1]["content"]
        return content if isinstance(content, str) else json.dumps(content)

    def payload(self) -> dict:
        """The JSON data at the start of the user message."""
        decoder = json.JSONDecoder()
        data, _end = decoder.raw_decode(self.user_text)
        return data


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    match = re.match(r"(.+?[.!?。！？])(\s|$)", text)
    return (match.group(1) if match else text)[:200]


def default_answer(request: Request) -> dict:
    """A well-formed tool input for the tools Tidings defines, built from the request."""
    payload = request.payload()
    if request.tool_name == "record_summaries":
        return {
            "items": [
                {
                    "ref": item["ref"],
                    "summary": f"In short: {_first_sentence(item['text'] or item['title'])}",
                    "tags": [word.lower() for word in item["title"].split()[:2]],
                    "content_type": "news",
                    "entities": [item["source"]] if item.get("source") else [],
                }
                for item in payload["items"]
            ]
        }
    if request.tool_name == "write_narrative":
        items = payload["items"]
        lead = items[0]
        parts = [f"**[{lead['title']}]({lead['url']})** leads today: {lead['summary']}"]
        if len(items) > 1:
            others = ", ".join(f"[{item['title']}]({item['url']})" for item in items[1:4])
            parts.append(f"Also worth your time: {others}.")
        return {
            "narrative_markdown": "\n\n".join(parts),
            "highlights": [item["title"][:40] for item in items[:3]],
        }
    if request.tool_name == "score_relevance":
        # The later an item comes, the more relevant: a re-ranking a test can see.
        items = payload["items"]
        return {
            "items": [
                {
                    "ref": item["ref"],
                    "relevance": min(100, 50 + 10 * index),
                    "reason": f"Semantically about {item['title'][:30]}",
                }
                for index, item in enumerate(items)
            ]
        }
    if request.tool_name == "suggest_interests":
        # The topic's comma- or "and"-separated parts, and an abbreviation a model would add.
        parts = re.split(r",|;|\band\b|、|和", payload["topic"])
        interests = [" ".join(part.split()) for part in parts if part.strip()]
        initials = "".join(word[0] for word in interests[0].split() if word[:1].isalpha())
        if len(initials) >= 2:
            interests.append(initials.upper())
        return {"interests": interests[:12], "negative_keywords": []}
    raise ValueError(f"the fake has no default answer for tool {request.tool_name!r}")


class FakeAnthropic:
    """`with FakeAnthropic.running() as fake:` serves on http://127.0.0.1:<port> and points
    the product's settings at it (key "test")."""

    def __init__(self, answer: Callable[[Request], dict] = default_answer):
        self.script: deque[Answer] = deque()
        self.requests: list[Request] = []
        self.default_answer = answer
        self.usage = {"input_tokens": 0, "output_tokens": 0}
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                request = Request(body=body, headers=dict(self.headers))
                with fake._lock:
                    fake.requests.append(request)
                    answer = fake.script.popleft() if fake.script else None
                if self.path != "/v1/messages":
                    return self._json(404, {"type": "error", "error": {"type": "not_found"}})
                if answer is not None and answer.stall_seconds:
                    time.sleep(answer.stall_seconds)
                    answer = None
                if answer is None:
                    try:
                        answer = Answer(tool_input=fake.default_answer(request))
                    except (ValueError, KeyError) as exc:  # a test forgot to script an answer
                        error = {"type": "invalid_request_error", "message": str(exc)}
                        return self._json(400, {"type": "error", "error": error})
                if answer.status != 200:
                    kind = {429: "rate_limit_error", 529: "overloaded_error"}.get(
                        answer.status, "api_error"
                    )
                    error = {"type": "error", "error": {"type": kind, "message": "fake says no"}}
                    return self._json(answer.status, error, answer.headers)
                return self._json(200, fake._message(request, answer))

            def _json(self, code, data, headers=None):
                raw = json.dumps(data).encode()
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(raw)))
                    for name, value in (headers or {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(raw)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args):
                pass

        self.loopback = LoopbackServer(Handler, host="127.0.0.1")
        self.url = self.loopback.url()

    def queue(self, *answers: Answer) -> None:
        self.script.extend(answers)

    def requests_for(self, tool_name: str) -> list[Request]:
        return [request for request in self.requests if request.tool_name == tool_name]

    def _message(self, request: Request, answer: Answer) -> dict:
        sent = json.dumps(
            [request.body.get("system", ""), request.body["messages"], request.body.get("tools")],
            ensure_ascii=False,
        )
        if answer.tool_input is not None:
            content = [
                {
                    "type": "tool_use",
                    "id": f"toolu_{len(self.requests)}",
                    "name": request.tool_name,
                    "input": answer.tool_input,
                }
            ]
            returned = json.dumps(answer.tool_input, ensure_ascii=False)
        else:
            content = [{"type": "text", "text": answer.text}]
            returned = answer.text
        usage = {"input_tokens": tokens_for(sent), "output_tokens": tokens_for(returned)}
        with self._lock:
            self.usage["input_tokens"] += usage["input_tokens"]
            self.usage["output_tokens"] += usage["output_tokens"]
        return {
            "id": f"msg_{len(self.requests)}",
            "type": "message",
            "role": "assistant",
            "model": request.body.get("model", "fake"),
            "content": content,
            "stop_reason": answer.stop_reason,
            "stop_sequence": None,
            "usage": usage,
        }

    def settings(self, **extra) -> dict:
        return {
            "ANTHROPIC_API_KEY": "test",
            "ANTHROPIC_BASE_URL": self.url,
            "LLM_MODEL_SUMMARY": "fake-haiku",
            "LLM_MODEL_NARRATIVE": "fake-sonnet",
            **extra,
        }

    @classmethod
    @contextmanager
    def running(cls, **settings) -> Iterator[FakeAnthropic]:
        fake = cls()
        with fake.loopback, override_settings(**fake.settings(**settings)):
            yield fake
