"""The words of the rule pages (``games/<game>/rulebook.json``, issue 28 item 14): Bazaar
Blot's page says when contra stops being allowed (rule BB-14 of shared/rules/bazaar-blot.md:
once the bidder's partner makes any call), and its Bulgarian text is Bulgarian ("деветка",
"десетка", not the Russian "девятка", "десятка")."""

from __future__ import annotations

import json
from pathlib import Path

import cardhall.games

RULEBOOK = Path(cardhall.games.__file__).parent / "bazaar_blot" / "rulebook.json"
CONTRA_CLOSES = {"en": "partner makes any call", "bg": "партньорът на обявилия не каже",
                 "hy": "զուգընկերը որևէ բան չի ասել"}


def _text(lang: str) -> str:
    page = json.loads(RULEBOOK.read_text(encoding="utf-8"))[lang]
    return "\n".join(p for s in page["sections"] for p in s["paragraphs"])


def test_the_contra_rule_says_when_the_window_closes_in_every_language() -> None:
    for lang, words in CONTRA_CLOSES.items():
        assert words in _text(lang), lang


def test_the_bulgarian_card_names_are_bulgarian() -> None:
    text = _text("bg")
    for russian in ("девятк", "десятк"):
        assert russian not in text.lower()
    assert "деветка" in text and "десетка" in text
