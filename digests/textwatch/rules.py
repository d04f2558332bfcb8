"""What counts as a change: ignore rules applied to the extracted text, and the trigger that
decides whether a change is told.

Regular expressions come from readers, so they run on the `regex` engine with a time limit:
a pattern that backtracks catastrophically is refused when it is saved (tried on a hostile
probe) and, should a page still make it slow, stops the check with an error instead of
holding a worker.
"""

from __future__ import annotations

import re
import time
from decimal import Decimal, InvalidOperation

import regex
from django.utils.translation import gettext as _

RULES_MAX = 20
RULE_MAX_CHARS = 200
# A threshold as the API takes it (the schema's pattern, checked whatever the trigger).
NUMBER_PATTERN = r"^-?[0-9]{1,14}(\.[0-9]{1,12})?$"
REGEX_TIMEOUT_SECONDS = 0.2
# Long runs of one character and of alternating ones: what makes nested quantifiers explode.
_PROBES = ("a" * 2000 + "!", "a " * 1000 + "!", "1" * 2000 + "x", "ab" * 1000 + "!")
# A page's whole filtering pass stops here, however many lines each pattern meets.
FILTER_DEADLINE_SECONDS = 1.0
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
_NUMBER = re.compile(r"-?\d{1,3}(?:[,\s]\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?")


class RuleError(Exception):
    def __init__(self, message: str, *, field: str, code: str = "invalid"):
        super().__init__(message)
        self.message, self.field, self.code = message, field, code


def _text_list(value, field: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise RuleError(_("Must be a list of texts."), field=field)
    items = [v.strip() for v in value if v.strip()]
    if len(items) > RULES_MAX:
        raise RuleError(_("At most %(limit)d rules.") % {"limit": RULES_MAX}, field=field)
    for item in items:
        if len(item) > RULE_MAX_CHARS:
            raise RuleError(
                _("A rule is longer than %(limit)d characters.") % {"limit": RULE_MAX_CHARS},
                field=field,
            )
    return items


def clean_ignore_text(value) -> list[str]:
    return _text_list(value, "ignore_text")


def clean_ignore_regex(value) -> list[str]:
    patterns = _text_list(value, "ignore_regex")
    for pattern in patterns:
        try:
            compiled = regex.compile(pattern)
        except regex.error as exc:
            raise RuleError(
                _("%(pattern)r is not a valid regular expression: %(detail)s")
                % {"pattern": pattern, "detail": exc},
                field="ignore_regex",
                code="invalid_pattern",
            ) from None
        try:
            for probe in _PROBES:
                compiled.search(probe, timeout=REGEX_TIMEOUT_SECONDS)
        except TimeoutError:
            raise RuleError(
                _("%(pattern)r takes too long to match (nested repetition?); simplify it.")
                % {"pattern": pattern},
                field="ignore_regex",
                code="too_slow",
            ) from None
    return patterns


class Filter:
    """The ignore rules of one watch, compiled once per check."""

    def __init__(self, *, texts=(), patterns=(), numbers: bool = False):
        self.texts = [t.casefold() for t in texts]
        self.patterns = [regex.compile(p) for p in patterns]
        self.numbers = numbers

    def apply(self, text: str) -> str:
        """The text as compared: ignored lines dropped, digits masked when numbers are
        ignored. Raises TimeoutError when a pattern runs too long on this page."""
        kept = []
        deadline = time.monotonic() + FILTER_DEADLINE_SECONDS
        for line in text.splitlines():
            folded = line.casefold()
            if any(t in folded for t in self.texts):
                continue
            if self.patterns:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                timeout = min(REGEX_TIMEOUT_SECONDS, left)
                if any(p.search(line, timeout=timeout) for p in self.patterns):
                    continue
            kept.append(_DIGITS.sub("#", line) if self.numbers else line)
        return "\n".join(kept)


def clean_trigger(kind: str, text: str, number) -> tuple[str, str, Decimal | None]:
    from digests.textwatch.models import TextWatch

    kinds = TextWatch.Trigger.values
    kind = (kind or "any").strip()
    if kind not in kinds:
        raise RuleError(
            _("Choose a trigger from %(choices)s.") % {"choices": ", ".join(kinds)},
            field="trigger",
            code="invalid_choice",
        )
    text = (text or "").strip() if isinstance(text, str) else ""
    if isinstance(number, str) and number and not re.fullmatch(NUMBER_PATTERN, number):
        raise RuleError(_("Enter the threshold as a number, e.g. 1299.5."), field="trigger_number")
    if kind in ("appears", "disappears"):
        if not text:
            raise RuleError(
                _("Enter the text to look for."), field="trigger_text", code="invalid_combination"
            )
        if len(text) > RULE_MAX_CHARS:
            raise RuleError(
                _("The text is longer than %(limit)d characters.") % {"limit": RULE_MAX_CHARS},
                field="trigger_text",
            )
        return kind, text, None
    if kind in ("above", "below"):
        if number in (None, ""):
            raise RuleError(
                _("Enter the threshold as a number."),
                field="trigger_number",
                code="invalid_combination",
            )
        try:
            value = Decimal(str(number).strip())
            if not value.is_finite() or abs(value) >= Decimal(10) ** 14:
                raise InvalidOperation
        except (InvalidOperation, ValueError, TypeError):
            raise RuleError(_("Enter the threshold as a number."), field="trigger_number") from None
        return kind, "", value
    return kind, "", None


def first_number(text: str) -> Decimal | None:
    """The first number of the watched text ("1,299.00" reads 1299.00), or None."""
    found = _NUMBER.search(text)
    if not found:
        return None
    try:
        return Decimal(re.sub(r"[,\s]", "", found.group(0)))
    except InvalidOperation:
        return None


def fires(kind: str, *, before: str, after: str, text: str = "", number=None) -> bool:
    """Whether the change from `before` to `after` (both already filtered) is told."""
    if kind == "appears":
        needle = text.casefold()
        return needle in after.casefold() and needle not in before.casefold()
    if kind == "disappears":
        needle = text.casefold()
        return needle in before.casefold() and needle not in after.casefold()
    if kind in ("above", "below"):
        old, new = first_number(before), first_number(after)
        if new is None:
            return False
        crossed = new > number if kind == "above" else new < number
        was = old is not None and (old > number if kind == "above" else old < number)
        return crossed and not was
    return True
