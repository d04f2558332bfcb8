"""How close in meaning an item is to a topic: the scorer's second opinion, beside the words
the two share (digests/runs/scoring.py `meaning_points`).

An item's title and the start of its summary, and the reader's topic, are each read as one
vector of static word embeddings — WordLlama's `l2_supercat` model (256 dimensions, token
embeddings distilled from a large language model's, averaged over the text) — and their
closeness is the cosine of the two: "database" is closer to "PostgreSQL" (0.36) than to "a
lemon cake recipe" (0.03) though neither says it. The model is 16 MB inside the `wordllama`
wheel: nothing is downloaded, nothing runs on a GPU, a text takes about 40 µs.

The model is loaded on first use (under a second, ~100 MB with numpy and the tokenizer). An
item's vector is kept per process (VECTOR_CACHE items, about 600 bytes each with their keys),
by the item and its text, so a run or a preview after the first embeds only what is new.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

# What of an item is read: its title and the start of its summary (a summary's first sentences
# say what it is about; the rest dilutes the average).
MEANING_TEXT_CHARS = 600
VECTOR_CACHE = 100_000

_lock = threading.Lock()
# Each item's vector as half-precision bytes, by the hash of (item id, text).
_vectors: dict[int, bytes] = {}


@cache
def _model():
    import wordllama
    from wordllama import WordLlama

    # The weights and the tokenizer are inside the wheel. Pointed at the package's own folder
    # with downloads off, WordLlama never fetches anything (by default it looks for the
    # tokenizer in a folder the wheel does not have, then asks Hugging Face for it).
    return WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)


def item_text(title: str, summary: str) -> str:
    return f"{title or ''}\n{summary or ''}"[:MEANING_TEXT_CHARS]


def _embedded(texts: list[str]) -> np.ndarray:
    # A text the model reads as no token at all has no direction: WordLlama divides by its
    # zero norm, and one NaN would make the candidates' mean NaN, taking everyone's points.
    with np.errstate(invalid="ignore", divide="ignore"):
        vectors = np.asarray(_model().embed(texts, norm=True), dtype=np.float32)
    return np.nan_to_num(vectors, nan=0.0)


def closeness(topic: str, items: Sequence[tuple[int, str]]) -> list[float]:
    """The cosine of `topic` and each item's text (`items`: (item id, `item_text`)), from -1
    to 1; 0 for every item when the topic is blank."""
    if not items or not topic.strip():
        return [0.0] * len(items)
    keys = [hash(item) for item in items]
    with _lock:
        found = [_vectors.get(key) for key in keys]
    missing = {
        key: text
        for key, (_id, text), vector in zip(keys, items, found, strict=True)
        if vector is None
    }
    if missing:
        vectors = _embedded(list(missing.values())).astype(np.float16)
        fresh = {key: vector.tobytes() for key, vector in zip(missing, vectors, strict=True)}
        found = [
            fresh[key] if vector is None else vector
            for key, vector in zip(keys, found, strict=True)
        ]
        with _lock:
            if len(_vectors) + len(fresh) > VECTOR_CACHE:
                _vectors.clear()  # a whole new pool's worth: start again rather than grow
            _vectors.update(fresh)
    matrix = np.frombuffer(b"".join(found), dtype=np.float16).reshape(len(keys), -1)
    cosines = matrix.astype(np.float32) @ _embedded([topic])[0]
    return np.clip(cosines, -1.0, 1.0).tolist()  # kept at half precision: 1.00002 happens
