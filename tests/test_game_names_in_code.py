"""No game name in code outside the game's own places (issue 25, "a catalog instead of lists").

A game is one package plus its bot and its browser view: everything else (the server, the
table runtime, storage, the CLI, self-play, the browser's lobby, rules and ratings pages)
learns the games from the registry (``engine/registry.py``, ``GET /api/catalog``). This test
scans the code of ``src/`` (Python) and ``static/js`` (JavaScript) for each registered game's
name (``bazaar_blot``) and its display name (``Bazaar Blot``, the rules object's ``title``),
comments and docstrings left out, and allows them only in:

- ``src/cardhall/games/<game>/`` (the game's package),
- ``src/cardhall/bots/<game>.py`` (its rule bot),
- ``static/js/games/<game>.js`` (its browser view module),
- the game's line of ``GAME_MODULES`` in ``src/cardhall/engine/registry.py`` (the one list).

Each place may name only its own game. ``KNOWN`` lists the files still naming a game that
belong to work in progress elsewhere; a file listed there that no longer names a game fails
too, so the list only shrinks.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pytest

from cardhall.engine import get_game
from cardhall.engine.registry import game_names

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "cardhall"
JS = ROOT / "static" / "js"

KNOWN: frozenset[str] = frozenset({"src/cardhall/protocol/games.py"})
"""Files (relative to the repository) allowed to name games for now: ``protocol/games.py``
holds the per-game wire models, which move into the game packages with the games' own wire
shapes (issue 25)."""


@dataclass(frozen=True)
class Hit:
    """``path:line`` names ``game`` (by name or display name) in code."""

    path: str
    line: int
    game: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text.strip()[:100]} (names {self.game})"


def pattern_of(name: str, title: str) -> re.Pattern[str]:
    """A case-insensitive pattern of a game's name and its display name (words apart by any
    space; an apostrophe typed straight or curly, or escaped in a string)."""
    words = [re.escape(w).replace("'", "(?:'|’|\\\\')") for w in title.split()]
    return re.compile(re.escape(name) + "|" + r"\s+".join(words), re.IGNORECASE)


def _patterns() -> dict[str, re.Pattern[str]]:
    """Per registered game: :func:`pattern_of` its name and its rules object's title."""
    return {name: pattern_of(name, get_game(name).title) for name in game_names()}


# -- Python: every token but comments and docstrings (bare string statements) ---------------

def _docstring_lines(tree: ast.AST) -> set[int]:
    """Lines of every bare string statement (module, class, function and attribute
    docstrings)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def python_code(text: str) -> list[tuple[int, str]]:
    """``(line, code)`` of a Python source: each line's tokens without comments and
    docstrings."""
    skip = _docstring_lines(ast.parse(text))
    lines: dict[int, list[str]] = {}
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                        tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        if tok.start[0] in skip and tok.type == tokenize.STRING:
            continue
        lines.setdefault(tok.start[0], []).append(tok.string)
    return sorted((n, " ".join(parts)) for n, parts in lines.items())


# -- JavaScript: the text without comments (strings, templates and regexes kept) ------------

_REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^") | {""}


def js_code(text: str) -> list[tuple[int, str]]:
    """``(line, code)`` of a JavaScript module: each line without its ``//`` and ``/* */``
    comments. Strings, template literals and regular expressions are kept as code."""
    out: list[str] = []
    i, n = 0, len(text)
    last = ""  # the last significant character outside comments
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c == "/" and nxt == "*":
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))  # keep the line numbers
            i = end
            continue
        if c in "'\"`" or (c == "/" and last in _REGEX_BEFORE):
            j = _literal_end(text, i)
            out.append(text[i:j])
            last = text[j - 1]
            i = j
            continue
        out.append(c)
        if not c.isspace():
            last = c
        i += 1
    return list(enumerate("".join(out).split("\n"), start=1))


def _literal_end(text: str, i: int) -> int:
    """The index after the string, template or regular expression starting at ``i``."""
    quote, j, in_class = text[i], i + 1, False
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if quote == "/":
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            elif c == "/" and not in_class:
                return j + 1
            elif c == "\n":
                return j
        elif c == quote:
            return j + 1
        elif c == "\n" and quote != "`":
            return j
        j += 1
    return j


# -- the places a game may be named ---------------------------------------------------------

def _own_game(rel: str) -> str | None:
    """The game whose own place ``rel`` is (``None``: no game's)."""
    parts = rel.split("/")
    if parts[:3] == ["src", "cardhall", "games"] and len(parts) > 4:
        return parts[3]
    if parts[:3] == ["src", "cardhall", "bots"] and len(parts) == 4:
        return parts[3].removesuffix(".py")
    if parts[:3] == ["static", "js", "games"] and len(parts) == 4:
        return parts[3].removesuffix(".js")
    return None


def _registry_line(rel: str, code: str, game: str) -> bool:
    """The game's line of ``GAME_MODULES``: ``"<game>": "cardhall.games.<game>",``."""
    return rel == "src/cardhall/engine/registry.py" and \
        re.fullmatch(rf'"{game}"\s*:\s*"cardhall\.games\.{game}"\s*,?', code.strip()) is not None


def hits(rel: str, lines: list[tuple[int, str]],
         patterns: dict[str, re.Pattern[str]]) -> list[Hit]:
    """Every line of ``rel`` naming a game outside that game's own places."""
    own = _own_game(rel)
    found = []
    for number, code in lines:
        for game, pattern in patterns.items():
            if game != own and pattern.search(code) and not _registry_line(rel, code, game):
                found.append(Hit(rel, number, game, code))
    return found


def scan(root: Path = ROOT) -> list[Hit]:
    """Every game named in code outside its places, over ``src/`` and ``static/js``."""
    patterns = _patterns()
    found: list[Hit] = []
    for path in sorted((root / "src").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        found += hits(rel, python_code(path.read_text(encoding="utf-8")), patterns)
    for path in sorted((root / "static" / "js").rglob("*.js")):
        rel = path.relative_to(root).as_posix()
        found += hits(rel, js_code(path.read_text(encoding="utf-8")), patterns)
    return found


def test_no_game_name_in_code_outside_its_places() -> None:
    found = [h for h in scan() if h.path not in KNOWN]
    assert found == [], "game names in code (issue 25: read them from the registry or the " \
        "catalog instead):\n" + "\n".join(map(str, found))


def test_the_known_list_only_shrinks() -> None:
    naming = {h.path for h in scan()}
    stale = sorted(KNOWN - naming)
    assert stale == [], f"these files no longer name a game: drop them from KNOWN: {stale}"


# -- the scanner itself ---------------------------------------------------------------------

PATTERNS = {"palace_poker": pattern_of("palace_poker", "Palace Poker")}


@pytest.mark.parametrize(("source", "named"), [
    ('GAME = "palace_poker"\n', True),
    ("from .games.palace_poker import cards\n", True),
    ('x = f"{a} Palace  Poker"\n', True),
    ('def f():\n    """Deal palace_poker."""\n    return 1\n', False),
    ("x = 1  # palace_poker\n", False),
    ('X = 1\n"""Palace Poker: the attribute docstring."""\n', False),
])
def test_python_scanner(source: str, named: bool) -> None:
    assert bool(hits("src/cardhall/x.py", python_code(source), PATTERNS)) is named


@pytest.mark.parametrize(("source", "named"), [
    ('const G = ["palace_poker"];\n', True),
    ("const s = `#/rules/palace_poker`;\n", True),
    ("t('Palace Poker');\n", True),
    ("// palace_poker\nconst x = 1;\n", False),
    ("/* Palace Poker\n   palace_poker */ const x = 1;\n", False),
    ('const u = "http://x"; // palace_poker\n', False),
    ("const r = s.replace(/\\/\"/g, ''); // palace_poker\n", False),
    ("const r = a / b; const q = c / d; // palace_poker\n", False),
])
def test_js_scanner(source: str, named: bool) -> None:
    assert bool(hits("static/js/x.js", js_code(source), PATTERNS)) is named


@pytest.mark.parametrize("text", ["x = 'Soldier\\'s Bluff'", 'x = "Soldier’s  Bluff"',
                                  "SOLDIERS_BLUFF = 1", 'x = "soldier\'s bluff"'])
def test_display_names_are_found_however_typed(text: str) -> None:
    pattern = pattern_of("soldiers_bluff", "Soldier's Bluff")
    assert hits("src/cardhall/x.py", python_code(text + "\n"), {"soldiers_bluff": pattern})


def test_own_places() -> None:
    game = "palace_poker"
    own = ['src/cardhall/games/palace_poker/rules.py', "src/cardhall/bots/palace_poker.py",
           "static/js/games/palace_poker.js"]
    for rel in own:
        assert hits(rel, [(1, 'x = "palace_poker"')], PATTERNS) == []
    assert hits("src/cardhall/engine/registry.py",
                [(1, f'"{game}": "cardhall.games.{game}",')], PATTERNS) == []
    assert hits("src/cardhall/engine/registry.py", [(1, f'X = "{game}"')], PATTERNS)
    assert hits("src/cardhall/games/soldiers_bluff/rules.py", [(1, f'"{game}"')], PATTERNS)
