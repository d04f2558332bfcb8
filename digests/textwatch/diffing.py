"""A readable diff of two versions of a watched text: lines added and removed, and inside a
changed line the words that changed (difflib, the standard library's matcher)."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

_WORDS = re.compile(r"\S+|\s+")
SUMMARY_MAX_LINES = 12


@dataclass
class DiffLine:
    op: str  # "+", "-" or " "
    text: str
    # (changed, piece) pairs: the words that differ from the paired line are `changed`.
    pieces: list[tuple[bool, str]] = field(default_factory=list)


@dataclass
class TextDiff:
    lines: list[DiffLine]

    @property
    def added(self) -> int:
        return sum(1 for line in self.lines if line.op == "+")

    @property
    def removed(self) -> int:
        return sum(1 for line in self.lines if line.op == "-")

    def as_text(self, max_lines: int = SUMMARY_MAX_LINES) -> str:
        """The changed lines as "+ …" / "− …", for a notification's plain text."""
        changed = [f"{'+' if d.op == '+' else '−'} {d.text}" for d in self.lines if d.op != " "]
        if len(changed) > max_lines:
            changed = [*changed[:max_lines], f"… (+{len(changed) - max_lines})"]
        return "\n".join(changed)

    def as_html(self) -> SafeString:
        rows = []
        for line in self.lines:
            css = {"+": "diff-add", "-": "diff-del", " ": "diff-same"}[line.op]
            mark = "ins" if line.op == "+" else "del"
            body = "".join(
                f"<{mark}>{escape(piece)}</{mark}>" if changed else escape(piece)
                for changed, piece in (line.pieces or [(False, line.text)])
            )
            sign = {"+": "+", "-": "−", " ": " "}[line.op]
            rows.append(f'<div class="{css}"><span class="diff-sign">{sign}</span>{body}</div>')
        return mark_safe('<div class="text-diff">' + "".join(rows) + "</div>")


def _word_pieces(old: str, new: str) -> tuple[list, list]:
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    left, right = [], []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        changed = op != "equal"
        if i2 > i1:
            left.append((changed, "".join(a[i1:i2])))
        if j2 > j1:
            right.append((changed, "".join(b[j1:j2])))
    return left, right


def diff_texts(before: str, after: str, *, context: int = 2) -> TextDiff:
    """The changed lines with `context` unchanged lines around each change."""
    a, b = before.splitlines(), after.splitlines()
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    lines: list[DiffLine] = []
    for group in matcher.get_grouped_opcodes(context):
        for op, i1, i2, j1, j2 in group:
            if op == "equal":
                lines.extend(DiffLine(" ", text) for text in a[i1:i2])
                continue
            old, new = a[i1:i2], b[j1:j2]
            paired = min(len(old), len(new)) if op == "replace" else 0
            removed = [DiffLine("-", t) for t in old]
            added = [DiffLine("+", t) for t in new]
            for k in range(paired):
                removed[k].pieces, added[k].pieces = _word_pieces(old[k], new[k])
            lines.extend(removed)
            lines.extend(added)
    return TextDiff(lines)
