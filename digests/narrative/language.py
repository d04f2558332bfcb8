"""The language a brief is shown in, and its overview as shown in it.

A brief is read in its subscription's fixed language, else in its reader's current one — not
the one it had when its run wrote it. What a program wrote is written out again in that
language when shown: the reasons (digests.narrative.reasons) and the template overview (its fixed
phrases, `relocalize_template`). A model's overview is prose in the language it was written
in; it is shown as it is, and says which language that is when it differs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import get_language_info

from digests.models import Run, Subscription
from digests.narrative.summaries import PHRASES, TEMPLATE, normalize_locale
from inbox.models import UserPreference


def output_locale_for(subscription: Subscription) -> str:
    """The language a brief of `subscription` is written in now (one query at most)."""
    if subscription.language_mode == Subscription.LanguageMode.FIXED and subscription.output_locale:
        return subscription.output_locale
    preference = UserPreference.objects.filter(user_id=subscription.owner_id).first()
    return preference.ui_locale if preference else "en"


def shown_locale(subscription: Subscription) -> str:
    """output_locale_for on a page or API answer, where the active language already is the
    reader's (inbox.middleware): no query."""
    if subscription.language_mode == Subscription.LanguageMode.FIXED and subscription.output_locale:
        return subscription.output_locale
    return translation.get_language() or "en"


def _lead_pattern(words: dict[str, str]) -> re.Pattern:
    source = re.escape(words["source"]).replace(re.escape("{source}"), "(?P<source>.*?)")
    pattern = re.escape(words["lead"])
    for name, group in (("title", "(?P<title>.*?)"), ("name", "(?P<name>.*?)")):
        pattern = pattern.replace(re.escape("{" + name + "}"), group)
    pattern = pattern.replace(re.escape("{source}"), f"(?:{source})?")
    return re.compile(pattern)


def relocalize_template(markdown: str, written_in: str, locale: str) -> str:
    """A template overview (digests.narrative.summaries.template_narrative) written in
    `written_in`, with `locale`'s fixed phrases instead; as stored when it does not read as
    one (or its language is not known)."""
    source, target = normalize_locale(written_in), normalize_locale(locale)
    if not markdown or not written_in or source == target or source not in PHRASES:
        return markdown
    old, new = PHRASES[source], PHRASES.get(target, PHRASES["en"])
    lines = markdown.split("\n")
    lead = _lead_pattern(old).fullmatch(lines[0])
    if lead is None:
        return markdown
    from_source = lead["source"]
    lines[0] = new["lead"].format(
        title=lead["title"],
        name=lead["name"],
        source=new["source"].format(source=from_source) if from_source is not None else "",
    )
    swaps = {old["also"]: new["also"], old["sources"]: new["sources"]}
    return "\n".join(swaps.get(line, line) for line in lines)


@dataclass(frozen=True)
class ShownOverview:
    markdown: str
    by_model: bool
    # The language's name (in the active language) when a model wrote it in another
    # language than the brief is shown in; "" otherwise.
    written_in: str = ""


def language_name(locale: str) -> str:
    try:
        return str(get_language_info(normalize_locale(locale))["name_translated"])
    except KeyError:
        return locale


def shown_overview(run: Run, locale: str) -> ShownOverview:
    """The run's overview as a brief shown in `locale` presents it."""
    markdown, generator = run.narrative_md, run.narrative_generator
    if not generator or generator == TEMPLATE:
        return ShownOverview(relocalize_template(markdown, run.output_locale, locale), False)
    written = run.output_locale
    differs = bool(markdown and written) and normalize_locale(written) != normalize_locale(locale)
    return ShownOverview(markdown, True, language_name(written) if differs else "")
