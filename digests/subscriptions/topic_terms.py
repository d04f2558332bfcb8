"""Interests from a topic in plain words, without a model (SPEC §5): the fallback of
digests/subscriptions/interests.py, and what every topic gets when no model key is configured.

"keeping up with Rust async runtimes" becomes ["Rust async runtimes", "Rust async",
"async runtimes", "Rust"]; "我想关注大语言模型和开源数据库的最新进展" becomes ["大语言模型",
"开源数据库"]. The scorer matches Latin terms as whole words (the last one in its singular or
plural) and Chinese, Japanese and Korean terms as substrings, so terms are phrases and words
that can occur as written in an article:

- Latin words: function words, the filler people wrap a topic in ("keeping up with",
  "latest news about") and the idioms they ask in ("up to date", "in the loop") end a phrase.
  A phrase of one or two words is kept as it is; a longer one also as its two-word pieces
  ("async runtimes"), since articles rarely repeat a long phrase word for word; a phrase
  ending in a generic head ("pricing strategy", "git tips") also without it; a phrase of
  generic heads alone ("research" of "research on marine life", "tips and tutorials") is no
  term unless nothing else is. Names — ALL-CAPS, mixedCase, words
  with digits or with . + # inside (Next.js, C++, GPT-4), capitalized words inside a sentence
  in lower case — are kept alone too. Initials and titles (G.K., C., Dr., St., Jr.) are part of
  the name they begin or end, never a term alone, as is an article before a capitalized word
  (Los Angeles, Le Monde); a name also stands without its initials (Chesterton of G.K.
  Chesterton), as articles mostly write it. A topic's capitalized first word begins a name
  when an ordinary capitalized word follows (Hong Kong protests), and a name of several words
  stands alone from a phrase of any length.
- Chinese has no spaces: the text is cut at function words and filler (的, 和, 关注, 最新 …)
  by longest match, and a cut that would leave a single character is undone (和平, 现在).
  A name in a Chinese or Japanese phrase (the segmenter's part of speech) is kept alone as an
  English one is: an abbreviation always (央行 of 央行货币政策), another name from a phrase
  of two words (华为 of 华为手机).
- Japanese: runs of hiragana (particles, okurigana) separate the words; kanji, katakana and
  Latin runs written together stay one term (大規模言語モデル, 生成AI); filler (最新, 動向)
  is cut out as in Chinese.
- Korean: words are separated by spaces; a particle is stripped from the end of a word
  (반도체를 → 반도체) and ends a phrase, which is kept as an English one is: as written, its
  two-word pieces when longer, and without a generic head (반도체 산업 → 반도체); a word of a
  longer phrase is no interest alone (모델 of 대형 언어 모델 would find 모델하우스).

Word lists are in digests/subscriptions/topic_words/ (see its README).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

from ingest.text.segment import ABBREVIATION, FUNCTION, korean_particles, segment
from ingest.text.terms import clean_term, same_term_key, without_possessives
from ingest.text.word_lists import word_list

WORDS_DIR = Path(__file__).parent / "topic_words"
MAX_TERMS = 12
MAX_TERM_CHARS = 100
LONG_PHRASE_WORDS = 4  # longer phrases are kept only as their two-word pieces
# Lower-case words that link the parts of one name (Ruby on Rails, Lord of the Rings, Banco
# de España), at most MAX_NAME_LINKS in a row.
_NAME_LINKS = frozenset(
    ["on", "of", "the", "de", "du", "da", "del", "der", "des", "la", "le", "von", "van", "y"]
)
MAX_NAME_LINKS = 2
# Articles that begin a name when a capitalized word follows (Los Angeles, Le Monde, El Paso),
# filler otherwise. Not German's: every German noun is capitalized.
_NAME_ARTICLES = frozenset(["La", "Le", "Les", "Los", "Las", "El", "Il"])

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_KATAKANA = "\u30a0-\u30ff\u31f0-\u31ff"
_HIRAGANA = "\u3040-\u309f"
_HANGUL = "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
_LATIN = "A-Za-z0-9\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff"  # and Greek, Cyrillic
# A Latin word may hold . ' / - between letters and end in + or # (Next.js, CI/CD, C++, C#).
_LATIN_WORD = rf"[{_LATIN}](?:[{_LATIN}+#]|[._'’/-](?=[{_LATIN}]))*"
_TOKEN = re.compile(
    rf"(?P<latin>{_LATIN_WORD})"
    rf"|(?P<cjk>[{_HAN}{_KATAKANA}]+)"
    rf"|(?P<hiragana>[{_HIRAGANA}]+)"
    rf"|(?P<hangul>[{_HANGUL}]+)"
    r"|(?P<space>\s+)"
    r"|(?P<other>.)"
)
_KANA = re.compile(rf"[{_HIRAGANA}{_KATAKANA}]")
_NAME_INSIDE = re.compile(r"[0-9.+#]")


@cache  # by name: building the path costs more than the lookups it serves
def _words(name: str) -> frozenset[str]:
    return word_list(WORDS_DIR / name)


@cache
def _filler_phrases() -> re.Pattern:
    """The idioms of topic_words/en_filler_phrases.txt (one per line), longest first, in lower
    case but their first letter: capitals say a name ("The Future of Work", "Heads-Up Display")."""
    path = WORDS_DIR / "en_filler_phrases.txt"
    lines = [line.split() for line in path.read_text("utf-8").splitlines()]
    phrases = sorted((words for words in lines if words and not words[0].startswith("#")), key=len)
    alternatives = (
        f"[{words[0][0].upper()}{words[0][0]}]"
        + r"[\s-]+".join(map(re.escape, [words[0][1:], *words[1:]]))
        for words in reversed(phrases)
    )
    return re.compile(rf"(?<![\w'’-])(?:{'|'.join(alternatives)})(?![\w'’-])")


@cache
def _korean_lists() -> tuple[frozenset[str], tuple[str, ...]]:
    """Korean filler words, and the particles (longest first, shared with the segmenter)."""
    return _words("ko_stop.txt"), korean_particles()


@dataclass
class _Token:
    kind: str  # latin, cjk, hiragana, hangul, space, other
    text: str


def _tokens(text: str) -> list[_Token]:
    tokens = [_Token(m.lastgroup or "other", m.group()) for m in _TOKEN.finditer(text)]
    joined: list[_Token] = []
    for index, token in enumerate(tokens):
        if token.text == "." and joined and _period_is_the_words(joined[-1], tokens, index + 1):
            joined[-1] = _Token("latin", joined[-1].text + ".")  # G.K., Dr.: not a sentence's end
        else:
            joined.append(token)
    return joined


# Initials (G.K., J.R.R.; U.S. and D.C. are written alike) and the titles of en_name_titles.
_DOTTED = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]\.?")
_INITIAL = re.compile(r"[A-Z]\.?")


def _period_is_the_words(word: _Token, tokens: list[_Token], after: int) -> bool:
    """Whether the period after `word` abbreviates it: always after dotted initials (G.K) and
    titles (Dr); after a single capital only when a name follows (C. S. Lewis, not "vitamin D.
    Also zinc")."""
    if word.kind != "latin":
        return False
    if _DOTTED.fullmatch(word.text) or _is_title(word.text):
        return True
    if not _INITIAL.fullmatch(word.text):
        return False
    following = _next_word(tokens, after)
    is_initial = following is not None and _INITIAL.fullmatch(tokens[following].text) is not None
    return is_initial or _name_follows(tokens, after)


def _after_initials(name_run: list[str]) -> list[str]:
    """The name without its leading initials (Chesterton of G.K. Chesterton, Supreme Court of
    U.S. Supreme Court), which articles mostly write alone; none after a title (St. Louis)."""
    rest = list(name_run)
    while rest and _is_abbreviation(rest[0]) and not _is_title(rest[0]):
        rest.pop(0)
    if len(rest) == len(name_run) or not rest or any(_is_abbreviation(w) for w in rest):
        return []
    return [" ".join(rest)]


def _begins_a_name(tokens: list[_Token], index: int) -> bool:
    """Whether a capitalized word before `index` is a name's first word: the words from `index`
    on go on with a capitalized word that is no filler, directly or through linking words."""
    word = tokens[index - 1].text
    if not word[:1].isupper() or word.casefold() in _words("en_lead.txt"):
        return False
    if len(word) >= 5 and word.endswith("ing"):
        return False  # a verb opening the topic: Cooking Italian food, Visiting Japan
    following = _next_word(tokens, index)
    if following is None:
        return False
    # Only an ordinary capitalized word goes on it (Hong Kong, Taylor Swift); an acronym or a
    # mixedCase name is a name of its own (Google AdWords, Apple iPhone).
    if _name_follows(tokens, following):
        return _name_kind(tokens[following].text, first=False, title_case=False) == "weak"
    return bool(_linked_name(tokens, following, title_case=False))


def _next_word(tokens: list[_Token], index: int) -> int | None:
    """The index of the first token at or after `index` that is not a space."""
    return next((n for n in range(index, len(tokens)) if tokens[n].kind != "space"), None)


def _name_follows(tokens: list[_Token], index: int) -> bool:
    """Whether the next word from `index` on is capitalized and no filler (Angeles)."""
    at = _next_word(tokens, index)
    following = None if at is None else tokens[at]
    return (
        following is not None
        and following.kind == "latin"
        and following.text[:1].isupper()
        and following.text.casefold() not in _latin_stop_words()
    )


def _is_title(word: str) -> bool:
    # Written as a title is (Dr, Ms.), not as an acronym (MS of MS Office, DR).
    bare = word.rstrip(".")
    return bare.istitle() and bare.casefold() in _words("en_name_titles.txt")


def _is_abbreviation(word: str) -> bool:
    """Initials (G.K., C.) or a title (Dr., Mr, Jr.): words that begin a name (or, as Jr.,
    end one) and name nothing alone."""
    return (
        bool(_DOTTED.fullmatch(word))
        or _is_title(word)
        or (len(word) == 2 and _INITIAL.fullmatch(word) is not None)
    )


def _name_kind(word: str, *, first: bool, title_case: bool) -> str:
    """ "strong" for a word that is a name wherever it stands, "weak" for a capitalized word
    inside a sentence written in lower case (Rust, New York) and for initials and titles
    wherever they stand (they begin a name: G.K. Chesterton, Dr. Fauci), else ""."""
    if _is_abbreviation(word):
        return "weak"
    if len(word) >= 2 and word.isupper():
        return "strong"  # AI, EU, LLM
    if any(c.isupper() for c in word[1:]) or _NAME_INSIDE.search(word):
        return "strong"  # PostgreSQL, iOS, Next.js, C++, GPT-4
    return "weak" if word[:1].isupper() and not first and not title_case else ""


def _linked_name(tokens: list[_Token], start: int, *, title_case: bool) -> int:
    """Where a name that goes on through linking words ends ("on Rails" after Ruby, "of the
    Rings" after Lord): the index of its next capitalized word, or 0 when `tokens[start]`
    does not begin such a link. Only in a sentence written in lower case, where a capital
    says "name"; "and" and "or" list names, they never link them."""
    if title_case:
        return 0
    links = 0
    for index in range(start, min(len(tokens), start + 2 * (MAX_NAME_LINKS + 1))):
        token = tokens[index]
        if token.kind == "space":
            continue
        if token.kind != "latin":
            return 0
        if token.text in _NAME_LINKS and links < MAX_NAME_LINKS:
            links += 1
            continue
        named = links and _name_kind(token.text, first=False, title_case=False)
        return index if named else 0
    return 0


def _next_kind(tokens: list[_Token], index: int) -> str:
    """The kind of the first token at or after `index` that is not a space ("" at the end)."""
    return next((t.kind for t in tokens[index:] if t.kind != "space"), "")


def _starts_weak_name(name_run: list[str]) -> bool:
    """Whether a run of capitalized words began with an ordinary capitalized word (New York,
    Commodore 64: one name) rather than an acronym or a name on its own (EU AI Act: EU, AI)."""
    return _name_kind(name_run[0], first=False, title_case=False) == "weak"


# The reader speaking of themselves: capitalized wherever it stands, never a name.
_FIRST_PERSON = frozenset(["i", "i'm", "i'd", "i've", "i'll"])


def _is_english_stop(word: str, *, first: bool, title_case: bool) -> bool:
    if word.casefold().replace("’", "'") in _FIRST_PERSON:
        return True
    if len(word) >= 2 and word.isupper():
        return False  # IT, US: acronyms, not "it" and "us"
    if word[:1].isupper() and not first and not title_case:
        return False  # "New" of New York in a sentence written in lower case
    return word.casefold().replace("’", "'") in _latin_stop_words()


@cache
def _latin_stop_words() -> frozenset[str]:
    return _function_words() | _words("en_filler.txt")


@cache
def _function_words() -> frozenset[str]:
    """Function words (English, and those of the European languages with their filler, which
    is rarely written apart): what Title Case leaves in lower case."""
    return _words("en_stop.txt") | _words("eu_stop.txt")


class _Terms:
    """Terms in the order they appear, each form of a term once."""

    def __init__(self):
        self.terms: list[str] = []
        self._keys: set[str] = set()

    def add(self, term: str) -> None:
        ends = term.rstrip(" '’-/")
        term = term.strip(" .'’-/")
        if ends.endswith(".") and _is_abbreviation(ends.rsplit(" ", 1)[-1]):
            term += "."  # U.S., Jr.
        if " " not in term and len(bare := without_possessives(term)) >= 2:
            # Japan of "Japan's new prime minister"; a phrase keeps its possessive as written
            # (Trump's tariffs), and the scorer finds either with or without one.
            term = bare
        if not term or len(term) > MAX_TERM_CHARS:
            return
        key = same_term_key(term)
        if key not in self._keys:
            self._keys.add(key)
            self.terms.append(term)


def _latin_phrase(words: list[str], terms: _Terms) -> None:
    # "writing better CSS" is about CSS: a verb that opens a phrase frames its object (a
    # filler word may stand between them: the verb is then a phrase of its own).
    while words and words[0].casefold() in _words("en_lead.txt"):
        words = words[1:]
    if not words:
        return
    if len(words) <= LONG_PHRASE_WORDS:
        terms.add(" ".join(words))
    if len(words) >= 3:
        # The piece that ends in the phrase's head ("home computers" of "retro home
        # computers") and, of four words, the two before it ("cold climate" of "cold climate
        # heat pumps"); the pieces across them rarely name anything ("retro home").
        terms.add(f"{words[-2]} {words[-1]}")
        if len(words) == LONG_PHRASE_WORDS:
            terms.add(f"{words[0]} {words[1]}")
    # "pricing strategy" is about pricing: the phrase without its generic head, too.
    core = list(words)
    while core and core[-1].casefold() in _words("en_generic.txt"):
        core.pop()
    if core and len(core) < len(words) and len(core) <= LONG_PHRASE_WORDS:
        terms.add(" ".join(core))


def _all_generic(words: list[str]) -> bool:
    return all(w.casefold() in _words("en_generic.txt") for w in words)


def _is_filler(word: str, stop: frozenset[str]) -> bool:
    """A stop word, or words made only of stop words (最新进展 is 最新 + 进展)."""
    if word in stop:
        return True
    longest = max((len(w) for w in stop), default=0)
    position = 0
    while position < len(word):
        widths = range(min(longest, len(word) - position), 0, -1)
        size = next((n for n in widths if word[position : position + n] in stop), 0)
        if not size:
            return False
        position += size
    return bool(word)


def _cjk_phrases(text: str, *, japanese: bool) -> list[tuple[list[str], dict[str, str]]]:
    """The noun phrases of `text` as lists of words (ingest/text/segment.py), each with the
    names among its words (word → NAME or ABBREVIATION, as the segmenter's part of speech
    says): function words and filler end a phrase; an affix (業, 大) or a single character
    joins its neighbour, so 观光业 and 大语言 stay whole (and are no name any more)."""
    stop = _words("ja_stop.txt") if japanese else _words("zh_stop.txt")
    phrases: list[tuple[list[str], dict[str, str]]] = [([], {})]
    glue = False  # the next word joins the last one (after a prefix)
    for word in segment(text, japanese=japanese):
        current, names = phrases[-1]
        if (
            word.kind == FUNCTION
            or _is_filler(word.text, stop)
            or (word.text.isascii() and word.text.casefold() in _latin_stop_words())
        ):
            if current:
                phrases.append(([], {}))
            glue = False
            continue
        single = len(word.text) == 1 and not word.text.isascii()
        if current and (glue or single):
            names.pop(current[-1], None)
            current[-1] += word.text  # 観光 + 業, 大 + 语言
            glue = False
        else:
            current.append(word.text)
            if word.name and not single:
                names[word.text] = word.name
            glue = single  # a lone first character (大 of 大语言) joins the next word
    return [(phrase, names) for phrase, names in phrases if phrase]


def _cjk_word(text: str, *, japanese: bool, terms: _Terms) -> None:
    """One run of text without spaces holding Chinese or Japanese (and maybe Latin) parts:
    its phrases as written (up to LONG_PHRASE_WORDS words), their two-word pieces, their
    long words (four characters or more: 电动汽车, エージェント) alone, and their names
    alone as English keeps them (`_name_kind`): an abbreviation always (央行 of 央行货币政策,
    as ECB of "ECB monetary policy"), another name from a phrase of two words (华为 of
    华为手机, as Rust of "Rust async")."""
    for words, names in _cjk_phrases(text, japanese=japanese):
        joined = "".join(words)
        if len(words) <= LONG_PHRASE_WORDS and len(joined) >= 2:
            terms.add(joined)
        if len(words) >= 3:
            for left, right in pairwise(words):
                terms.add(left + right)
        if len(words) >= 2:
            for word in words:
                if len(word) >= 4 and not word.isascii():
                    terms.add(word)
            for word, kind in names.items():
                if kind == ABBREVIATION or len(words) == 2:
                    terms.add(word)


def _korean_phrase(words: list[str], terms: _Terms) -> None:
    """A Korean noun phrase as an English one (`_latin_phrase`): Korean puts spaces between
    its words, so a word alone is no more an interest than "database" of "open-source
    database" is; the phrase as written, its two-word pieces when long, and what is left
    without a generic head (반도체 산업 → 반도체)."""
    if not words:
        return
    if len(words) <= LONG_PHRASE_WORDS:
        terms.add(" ".join(words))
    if len(words) >= 3:
        for left, right in pairwise(words):
            terms.add(f"{left} {right}")
    core = list(words)
    while core and core[-1] in _words("ko_generic.txt"):
        core.pop()
    if core and len(core) < len(words) and len(core) <= LONG_PHRASE_WORDS:
        terms.add(" ".join(core))


def _korean_word(word: str) -> tuple[str, bool]:
    """The word without its particle ("" for filler), and whether a particle ended it: a
    particle closes a noun phrase (반도체와 인공지능 are two terms, not one)."""
    stop, particles = _korean_lists()
    if word in stop:
        return "", True
    for particle in particles:
        if word.endswith(particle) and len(word) - len(particle) >= 2:
            word = word[: -len(particle)]
            return ("" if word in stop else word), True
    return ("" if len(word) < 2 else word), False


def extract_terms(topic: str) -> list[str]:
    """Up to MAX_TERMS interests from `topic`, most specific first within each phrase, in the
    order the topic names them. A topic made only of filler gives itself, as before."""
    text = clean_term(topic)
    if not text:
        return []
    # An idiom reads as a function word: it ends a phrase, and what follows it is inside the
    # sentence ("catch up on Rust": Rust is capitalized as a name, not as the first word).
    tokens = _tokens(_filler_phrases().sub(" about ", text))
    japanese = bool(_KANA.search(text))
    # Title Case ("Rust Async Runtimes") says nothing about names: no lower-case word but
    # function words. Filler written in lower case ("news about the New York Times") is a
    # sentence's, where a capital says "name"; and two capitalized words with only function
    # words between them are how a name is written (Game of Thrones, Call of Duty).
    latin = [t.text for t in tokens if t.kind == "latin"]
    content_words = [w for w in latin if w.casefold() not in _function_words()]
    one_name = (
        len(content_words) == 2
        and any(w in _NAME_LINKS for w in latin)
        and not any(w.casefold() in _words("en_generic.txt") for w in content_words)
    )
    title_case = (
        len(latin) >= 2 and not one_name and not any(w[:1].islower() for w in content_words)
    )
    terms, names = _Terms(), []
    phrase: list[str] = []
    name_run: list[str] = []  # capitalized words in a row: one name (New York)
    weak_names: list[str] = []  # capitalized names: kept alone only from a short phrase
    korean: list[str] = []
    first = True
    # Phrases of generic words only ("research" of "research on marine life", "tips and
    # tutorials"): they frame the topic, and alone would rank every research paper; the
    # topic's terms only when nothing else is.
    framing: list[str] = []

    def end_name(*, cut_short: bool = False) -> None:
        # `cut_short`: a capitalized word went on the name where it ends (the Court of U.S.
        # Supreme Court in Title Case): what is left after the initials is no name alone.
        if name_run:
            weak_names.append(" ".join(name_run))
            if not cut_short:
                names.extend(_after_initials(name_run))
            name_run.clear()

    def end_latin() -> None:
        # A capitalized word stands alone only in a short phrase: "Rust" of "What's new in
        # Rust", not "Python" of "Python virtual environments" (a strong name always does).
        end_name()
        # A name of several words (Hong Kong of "Hong Kong protest movement") stands alone
        # from a phrase of any length.
        names.extend(
            n for n in weak_names if len(phrase) <= 2 or (" " in n and _starts_weak_name(n.split()))
        )
        weak_names.clear()
        if phrase and _all_generic(phrase):
            framing.append(" ".join(phrase))
        else:
            _latin_phrase(phrase, terms)
        phrase.clear()

    def end_phrases() -> None:
        end_latin()
        _korean_phrase(korean, terms)
        korean.clear()

    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.kind == "space":
            index += 1
            continue
        # Text written together without a space across scripts is one word: 生成AI, AI芯片.
        run = [token]
        joinable = ("latin", "cjk", "hiragana")
        while token.kind in joinable and index + 1 < len(tokens):
            if tokens[index + 1].kind not in joinable:
                break
            index += 1
            run.append(tokens[index])
        index += 1
        kinds = {t.kind for t in run}
        if "cjk" in kinds or "hiragana" in kinds:
            end_phrases()
            _cjk_word("".join(t.text for t in run), japanese=japanese, terms=terms)
        elif token.kind == "latin" and (korean or _next_kind(tokens, index) == "hangul"):
            # A Latin word among Korean ones is a word of their phrase (생성형 AI 규제).
            end_latin()
            korean.append(token.text)
            if _name_kind(token.text, first=False, title_case=True) == "strong":
                names.append(token.text)
            first = False
        elif token.kind == "latin":
            word = token.text
            # The capitalized word after initials, a title or an article that begins a name is
            # the name's, even a word that is filler elsewhere (Dr. Who); a title such as Jr.
            # after a name ends it.
            begins_name = word in _NAME_ARTICLES and _name_follows(tokens, index)
            in_name = begins_name or (
                bool(name_run)
                and (
                    _is_abbreviation(word)
                    or (
                        word[:1].isupper()
                        and (_is_abbreviation(name_run[-1]) or name_run[-1] in _NAME_ARTICLES)
                    )
                )
            )
            linked = _linked_name(tokens, index - 1, title_case=title_case) if name_run else 0
            if linked:
                # "Ruby on Rails", "Lord of the Rings": one name, its linking words kept.
                joined = [t.text for t in tokens[index - 1 : linked + 1] if t.kind == "latin"]
                name_run.extend(joined)
                phrase[-1] = " ".join([phrase[-1], *joined])
                index = linked + 1
                first = False
                continue
            filler_in_name = in_name and (begins_name or _is_title(name_run[-1]))
            if not filler_in_name and _is_english_stop(word, first=first, title_case=title_case):
                end_latin()
            else:
                kind = "weak" if in_name else _name_kind(word, first=first, title_case=title_case)
                if not kind and first and not title_case and _begins_a_name(tokens, index):
                    # A topic's capitalized first word says nothing alone, but followed by a
                    # name it begins one: Hong Kong, South Korea, Advent of Code.
                    kind = "weak"
                if kind and name_run and _starts_weak_name(name_run):
                    # A capitalized word goes on a name begun with one (New York, Commodore 64):
                    # the name is one unit of its phrase, never cut in two.
                    phrase[-1] = f"{phrase[-1]} {word}"
                else:
                    phrase.append(word)
                if kind == "strong":
                    names.append(word)
                if kind:
                    name_run.append(word)
                else:
                    end_name(cut_short=word[:1].isupper())
            first = False
        elif token.kind == "hangul":
            end_latin()
            word, ends_phrase = _korean_word(token.text)
            if word:
                korean.append(word)
            if ends_phrase or not word:
                end_phrases()
        else:  # punctuation ends every phrase
            end_phrases()
            first = first or token.text in ".!?"
    end_phrases()
    for name in names:
        # "IT" alone would match every "it": case is folded when matching. A number alone
        # ("64" of Commodore 64) names nothing.
        if name.casefold() not in _latin_stop_words() and any(c.isalpha() for c in name):
            terms.add(name)
    if not terms.terms:
        for words in framing:
            terms.add(words)
    return terms.terms[:MAX_TERMS] or [text[:MAX_TERM_CHARS]]
