"""What every sub-command of ``cardhall`` shares: its errors in one form, and progress on a
terminal.

Errors: with ``--json`` one object ``{"error": {"code", "message"}}`` on stdout (the command's
one JSON answer, the code a stable namespaced string); without it one readable line on
stderr, ``cardhall COMMAND: error: MESSAGE [CODE]``. The exit status is the same either way.

Progress (:func:`progress`, :func:`live`): drawn with ``rich`` on stderr, and only when stderr
is a terminal and ``--quiet`` was not given, so stdout stays exactly what scripts read (what a
command prints on stdout goes above the bar when stdout is that terminal too, else straight to
stdout).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import unicodedata
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.progress import Progress

Advance = Callable[[], None]
"""Called once per finished unit (a game, a file, a migration)."""


def add_output_flags(p: argparse.ArgumentParser, *, json_help: str) -> None:
    """Give ``p`` the shared ``--json`` and ``--quiet`` flags."""
    p.add_argument("--json", action="store_true", help=json_help)
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress on stderr (it is drawn only when stderr is a terminal)")


def fail(args: argparse.Namespace, code: str, message: str, status: int) -> int:
    """Report an error the way ``args`` asks (module docstring); returns ``status``."""
    if getattr(args, "json", False):
        print(json.dumps({"error": {"code": code, "message": message}}))
    else:
        print(shown(f"cardhall {args.command}: error: {message} [{code}]"), file=sys.stderr)
    return status


def shown(text: str) -> str:
    """``text`` safe to print to a terminal: every control, format, surrogate, private-use
    or unassigned character (category C: ESC, CR, BEL, the C1 controls, the bidi overrides)
    and the line and paragraph separators as a Python escape (``\\x1b``, ``\\u202e``).
    A readable line quotes what documents and file names hold, and those must not move the
    cursor, erase or hide what the command prints (``cardhall verify`` saying "verified"
    over its own "MISMATCH")."""
    return "".join(_escaped(ch) if unicodedata.category(ch)[0] == "C"
                   or unicodedata.category(ch) in ("Zl", "Zp") else ch for ch in text)


def _escaped(ch: str) -> str:
    return ch.encode("unicode_escape").decode("ascii")


def wants_progress(args: argparse.Namespace) -> bool:
    """Whether to draw progress: stderr is a terminal and ``--quiet`` was not given."""
    return not getattr(args, "quiet", False) and sys.stderr.isatty()


def _console() -> Console:
    from rich.console import Console

    return Console(file=sys.stderr)


def _bar(console: Console, unit: str) -> Progress:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        """Units per second, as rich measures it (``task.speed``)."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:,.1f} {unit}/s")

    return Progress(TextColumn("{task.description}"), BarColumn(bar_width=10), MofNCompleteColumn(),
                    Rate(), TimeElapsedColumn(), TextColumn("|"),
                    TimeRemainingColumn(), TextColumn("left"),
                    console=console, redirect_stdout=sys.stdout.isatty())


@contextlib.contextmanager
def progress(args: argparse.Namespace, description: str, total: int | None,
             unit: str = "games") -> Iterator[Advance]:
    """A progress bar of ``total`` units (count, rate, elapsed, time left) on stderr; yields the
    function to call once per unit. Without a terminal (or with ``--quiet``) it draws nothing
    and the function does nothing."""
    if not wants_progress(args):
        yield lambda: None
        return
    with _bar(_console(), unit) as bar:
        task = bar.add_task(description, total=total)
        yield lambda: bar.advance(task)


@contextlib.contextmanager
def live(args: argparse.Namespace, description: str, total: int,
         view: Callable[[], RenderableType], unit: str = "games") -> Iterator[Advance | None]:
    """A progress bar with ``view()`` (e.g. a standings table) under it, redrawn 4 times a
    second, on stderr and cleared at the end (the command then prints its own result). Yields
    the advance function, or ``None`` when nothing is drawn (:func:`wants_progress`)."""
    if not wants_progress(args):
        yield None
        return
    from rich.console import Group
    from rich.live import Live

    console = _console()
    bar = _bar(console, unit)
    task = bar.add_task(description, total=total)
    with Live(console=console, refresh_per_second=4, transient=True,
              redirect_stdout=sys.stdout.isatty(), get_renderable=lambda: Group(bar, view())):
        # view() runs at each refresh (4 a second, rich's thread), not once per unit

        def advance() -> None:
            bar.advance(task)

        yield advance
