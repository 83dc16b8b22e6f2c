"""The table feel a Board Game Arena player expects (issue 28): a friend who leaves a private
table finds it again under "Your tables" (lobby and My games) and goes back to the seat."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import create_table, enter, play_until, shoot  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def _private_duel(host: Any, friend: Any, base: str) -> tuple[str, str]:
    """Host makes a private two-seat Soldier's Bluff table; the friend joins by the invite
    link; the hand begins. Returns (table id, invite link)."""
    host.select_option("#c-game", "soldiers_bluff")
    host.select_option("#c-seats", "2")
    host.select_option("#c-seat-1", "human")
    host.check("#c-private")
    host.fill("#c-timeout", "60")
    host.click("#c-create")
    host.wait_for_selector("[data-waiting-room] [data-seat='0']")
    link = host.locator(".invite-link").input_value()
    tid = link.split("#/invite/")[1].split("/")[0]
    friend.goto(link)
    friend.wait_for_selector(".board")
    host.wait_for_selector(".hand-box [data-card]")
    return tid, link


def test_a_friend_who_left_a_private_table_finds_it_under_your_tables(
        server: Any, new_page: Any, artifacts: Path) -> None:
    host, friend = new_page(), new_page()
    enter(host, server.url, "Host")
    enter(friend, server.url, "Friend")
    tid, _link = _private_duel(host, friend, server.url)
    friend.on("dialog", lambda d: d.accept())  # "Leave the table? A stand-in bot plays..."
    friend.click("a.leave")
    friend.wait_for_url(re.compile(r"#/$"))
    row = friend.wait_for_selector(f"[data-your-tables] [data-my-table='{tid}']")
    assert "Soldier" in row.inner_text()
    assert friend.locator(f"[data-my-table='{tid}'] [data-private]").count() == 1
    # the private table is still not in the public list
    assert friend.locator(f".tables [data-table='{tid}']").count() == 0
    shoot(friend, artifacts, "your-tables")
    # My games lists it too
    friend.goto(f"{server.url}/#/games")
    friend.wait_for_selector(f"[data-your-tables] [data-my-table='{tid}']")
    friend.click(f"[data-my-table='{tid}'] [data-back]")
    friend.wait_for_selector(".seat.me")
    table = server.table(tid)
    deadline = 50
    while table.seats[1].stand_in is not None and deadline:
        friend.wait_for_timeout(100)
        deadline -= 1
    assert table.seats[1].stand_in is None and table.seats[1].conn is not None
    assert table.seats[1].name == "Friend"


WATCH_HELD = """() => {
  // every held trick the page draws: its cards, winner, taker label, when shown and gathered
  window.heldSeen = [];
  let open = null;
  new MutationObserver(() => {
    const el = document.querySelector(".trick[data-held]");
    if (el && (!open || open.el !== el)) {
      if (open && open.t1 === null) open.t1 = performance.now();
      open = { el, cards: el.querySelectorAll("[data-card]").length, winner: el.dataset.winner,
        taker: el.querySelector(`.slot.winner[data-seat="${el.dataset.winner}"] [data-taker]`)?.textContent || null,
        t0: performance.now(), t1: null };
      window.heldSeen.push(open);
    } else if (!el && open && open.t1 === null) {
      open.t1 = performance.now();
    }
  }).observe(document.body, { childList: true, subtree: true });
}"""


@pytest.fixture(scope="module")
def slow_bots() -> Any:
    """A server whose bots think 0.6 s (as people see them; the module's think 0.05 s)."""
    from conftest import Server
    srv = Server(bot_delay_seconds=0.6)
    srv.start()
    yield srv
    srv.stop()


def test_a_finished_blot_trick_stays_a_moment_with_its_winner_marked(
        slow_bots: Any, new_page: Any, artifacts: Path) -> None:
    page = new_page()
    enter(page, slow_bots.url, "Ana")
    create_table(page, "bazaar_blot", roles={1: "rule", 2: "rule", 3: "rule"},
                 options={"c-cfg-target_score": "101"})
    page.evaluate(WATCH_HELD)
    shot = {"done": False}

    def on_turn(p: Any, _n: int) -> None:
        if not shot["done"] and p.locator(".trick[data-held]").count():
            shoot(p, artifacts, "blot-held-trick")
            shot["done"] = True

    # play until a trick was held and gathered
    play_until(page, ".last-trick figure", [".card[data-act=play]", "[data-act=pass]"],
               seconds=120, on_turn=on_turn)
    page.wait_for_function("window.heldSeen.filter((x) => x.t1 !== null).length >= 1",
                           timeout=10_000)
    if not shot["done"]:  # the screenshot: a held trick on the felt (bots think 0.6 s)
        page.wait_for_selector(".trick[data-held]", timeout=60_000)
        shot["done"] = True
        shoot(page, artifacts, "blot-held-trick")
    seen = page.evaluate("window.heldSeen.map(({el, ...x}) => x)")
    first = seen[0]
    assert first["cards"] == 4 and first["winner"] in "0123", seen
    assert first["taker"] and "takes" in first["taker"], seen
    # on the table for a moment (the next bot's lead waits 0.6 s), gathered within ~1.2 s
    gathered = [x for x in seen if x["t1"] is not None]
    assert all(x["t1"] - x["t0"] <= 1500 for x in gathered), seen
    assert max(x["t1"] - x["t0"] for x in gathered) >= 500, seen
    # the last trick strip names who played each card and who took it
    strip = page.locator(".last-trick")
    assert strip.locator("figure").count() == 4
    names = strip.locator("figcaption").all_inner_texts()
    assert "Ana" in names and len(set(names)) == 4, names
    assert strip.locator("figure.winner").count() == 1
    assert "takes the trick" in strip.inner_text()


def test_stand_in_marks_welcome_back_and_the_hands_log_restored(
        server: Any, new_page: Any, artifacts: Path) -> None:
    page = new_page()
    enter(page, server.url, "Lea")
    tid = create_table(page, "bazaar_blot", roles={1: "rule", 2: "rule", 3: "rule"},
                       options={"c-cfg-target_score": "101"})
    page.wait_for_selector(".hand [data-card]")
    watcher = new_page()
    enter(watcher, server.url, "Watcher")
    watcher.goto(f"{server.url}/#/watch/{tid}")
    watcher.wait_for_selector(".board .seat[data-seat='0']")
    assert watcher.locator(".seat[data-seat='0'] [data-stand-in]").count() == 0
    page.on("dialog", lambda d: d.accept())  # "Leave the table? A stand-in bot plays..."
    page.click("a.leave")
    page.wait_for_url(re.compile(r"#/$"))
    # everyone sees who plays the seat now
    mark = watcher.wait_for_selector(".seat[data-seat='0'] [data-stand-in]")
    assert "stand-in" in mark.inner_text()
    shoot(watcher, artifacts, "stand-in-mark")
    table = server.table(tid)
    moves = len(table.recorder.history.actions)
    for _ in range(100):  # the stand-in plays at bot pace
        if any(a.seat == 0 for a in table.recorder.history.actions[moves:]):
            break
        page.wait_for_timeout(50)
    page.go_back()  # back to the table with the Back button: the seat is taken back
    box = page.wait_for_selector("[data-summary] [data-welcome-back]")
    assert int(box.get_attribute("data-welcome-back") or 0) >= 1
    assert "Welcome back" in box.inner_text()
    page.wait_for_selector(".seat.me")
    assert table.seats[0].stand_in is None
    lines = page.locator(".log-list li").all_inner_texts()
    # the log of the match, rebuilt from the server: no gap, no "joined mid-hand"
    assert "Joined mid-hand" not in "\n".join(lines)
    assert re.fullmatch(r"Match 1 begins; \S+ deals\.", lines[0]), lines[:3]
    assert sum(x.startswith("Match ") for x in lines) == 1, lines
    history = table.recorder.history.to_json()["actions"]
    played = sum(1 for a in history if a["action"].get("type") == "play")
    page.wait_for_timeout(200)
    lines = page.locator(".log-list li").all_inner_texts()
    logged = sum(1 for x in lines if re.search(r" plays ", x))
    assert logged >= played, (logged, played, lines)
    deals = sum(1 for a in history if a["seat"] is None and a["action"]["type"] == "deal")
    assert sum(x.startswith("You get ") for x in lines) <= deals + 1, lines
    assert any(x.startswith("Welcome back") for x in lines), lines
    shoot(page, artifacts, "welcome-back")


PICKER = """async ([min, max]) => {
  const { cardPicker } = await import("/static/js/actions.js");
  const { frenchCard } = await import("/static/js/cards.js");
  const { t } = await import("/static/js/i18n.js");
  window.picked = null;
  const box = cardPicker({ f: "cards", from: ["Ah", "Kd", "7c"], min, max }, frenchCard,
    { act: () => {}, busy: false }, t("act.discard"), (cards) => { window.picked = cards; });
  box.id = "picker-under-test";
  document.querySelector("#picker-under-test")?.remove();
  document.body.prepend(box);
}"""


def test_palace_pokers_discard_picker_says_what_it_does(server: Any, new_page: Any) -> None:
    page = new_page()
    enter(page, server.url, "Pia")
    page.evaluate(PICKER, [1, 1])  # a discard turn: exactly one soldier goes
    box = page.locator("#picker-under-test")
    assert box.locator(".hint").inner_text() == "Choose 1 card, then press Discard."
    confirm = box.locator("[data-act=confirm]")
    assert confirm.inner_text() == "Discard" and confirm.is_disabled()
    box.locator("[data-pick]").first.click()
    assert confirm.inner_text() == "Discard 1 card" and confirm.is_enabled()
    confirm.click()
    assert page.evaluate("window.picked") == ["Ah"]
    page.evaluate(PICKER, [0, 3])  # a choice that may take none keeps "Keep all"
    box = page.locator("#picker-under-test")
    assert box.locator(".hint").inner_text() == "Choose up to 3 cards for Discard, or keep all."
    assert box.locator("[data-act=confirm]").inner_text() == "Keep all"
    assert box.locator("[data-act=confirm]").is_enabled()
    page.evaluate(PICKER, [2, 3])
    assert page.locator("#picker-under-test .hint").inner_text() == \
        "Choose 2–3 cards, then press Discard."


def test_blot_marks_your_partner_on_the_seats(server: Any, new_page: Any) -> None:
    page = new_page()
    enter(page, server.url, "Ana")
    tid = create_table(page, "bazaar_blot", roles={1: "rule", 2: "rule", 3: "rule"})
    page.wait_for_selector(".blot-seat .seat[data-seat='2']")
    partner = page.locator(".blot-seat [data-partner]")
    assert partner.count() == 1 and "partner" in partner.inner_text()
    top = page.locator(".blot-seat.pos-top")
    assert top.locator("[data-partner]").count() == 1
    assert top.locator(".seat[data-seat='2'] .name").inner_text() == "Cleo"
    # a spectator reads each seat's team
    spec = new_page()
    enter(spec, server.url, "Watcher")
    spec.goto(f"{server.url}/#/watch/{tid}")
    spec.wait_for_selector(".blot-seat [data-team-tag]")
    teams = spec.locator(".blot-seat [data-team-tag]").all_inner_texts()
    assert sorted(teams) == ["Team 1", "Team 1", "Team 2", "Team 2"], teams
    assert spec.locator("[data-partner]").count() == 0


def test_the_clock_running_out_is_said_over_the_table(server: Any, new_page: Any,
                                                      artifacts: Path) -> None:
    page = new_page()
    enter(page, server.url, "Ana")
    tid = create_table(page, "bazaar_blot", roles={1: "rule", 2: "rule", 3: "rule"},
                       turn_seconds=3)
    spec = new_page()
    enter(spec, server.url, "Watcher")
    spec.goto(f"{server.url}/#/watch/{tid}")
    # Ana does nothing: her clock runs out and the timer moves for her
    mine = page.wait_for_selector("[data-timeout-notice='you']:not([hidden])", timeout=20_000)
    text = mine.inner_text()
    assert text.startswith("Your time ran out, so this was played for you: Ana "), text
    shoot(page, artifacts, "timeout-notice")
    other = spec.wait_for_selector("[data-timeout-notice='other']:not([hidden])", timeout=20_000)
    assert other.inner_text().startswith("Time ran out for "), other.inner_text()
    assert "Timeout: " in page.locator(".log-list").inner_text()


def test_a_closed_tab_is_played_by_the_stand_in_from_its_first_timeout(
        server: Any, new_page: Any) -> None:
    """Item 4: a disconnected player made everyone wait the full clock at each decision. A
    seat whose holder has no connection gets its stand-in at its first timeout, marked for
    everyone, and its holder takes it back by opening the table again."""
    page = new_page()
    enter(page, server.url, "Dina")
    tid = create_table(page, "bazaar_blot", roles={1: "rule", 2: "rule", 3: "rule"},
                       options={"c-cfg-target_score": "101"}, turn_seconds=3)
    page.wait_for_selector(".hand [data-card]")
    watcher = new_page()
    enter(watcher, server.url, "Watcher")
    watcher.goto(f"{server.url}/#/watch/{tid}")
    watcher.wait_for_selector(".board .seat[data-seat='0']")
    context = page.context
    table = server.table(tid)
    # her clock may already have run out while she was connected (a slow machine takes more
    # than the 3 s clock to open the watcher's page): only the timeouts after the close count
    connected = len(table.recorder.history.actions)
    page.close()  # Dina closes the tab: no connection, no leave
    watcher.wait_for_selector(".seat[data-seat='0'] [data-away]")
    mark = watcher.wait_for_selector(".seat[data-seat='0'] [data-stand-in]", timeout=30_000)
    assert "stand-in" in mark.inner_text()
    timed_out = [a for a in table.recorder.history.actions[connected:]
                 if a.seat == 0 and a.timeout]
    assert len(timed_out) == 1, timed_out  # the first clock ran out; nobody waits again
    moves = len(table.recorder.history.actions)
    for _ in range(200):  # the stand-in plays her next decision at bot pace, not the clock's
        if any(a.seat == 0 for a in table.recorder.history.actions[moves:]):
            break
        watcher.wait_for_timeout(50)
    later = [a for a in table.recorder.history.actions[moves:] if a.seat == 0]
    assert later and not any(a.timeout for a in later), later
    back = context.new_page()  # she opens the table again: the seat is hers
    back.goto(f"{server.url}/#/table/{tid}/0")
    back.wait_for_selector(".seat.me")
    watcher.wait_for_selector(".seat[data-seat='0']:not(:has([data-stand-in]))")
    assert table.seats[0].stand_in is None and table.seats[0].conn is not None


def test_the_ten_second_clock_is_the_default_and_a_table_may_set_its_own(
        server: Any, new_page: Any) -> None:
    """Beyond the list: the 10-second clock stays the games' default (the product's rule) and
    the lobby says so ("server default" told a newcomer nothing); a table may set its own."""
    page = new_page()
    enter(page, server.url, "Ani")
    box = page.locator("#c-timeout")
    assert box.input_value() == "" and box.get_attribute("placeholder") == "10 s (default)"
    page.select_option("#lang", "hy")
    page.wait_for_function("document.documentElement.lang === 'hy'")
    assert "10" in (page.locator("#c-timeout").get_attribute("placeholder") or "")
    page.select_option("#lang", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.select_option("#c-game", "bazaar_blot")
    for seat in (1, 2, 3):
        page.select_option(f"#c-seat-{seat}", "rule")
    page.click("#c-create")  # the turn time left empty
    page.wait_for_url(re.compile(r"#/table/"))
    page.wait_for_selector(".hand [data-card]")
    tid = page.url.split("#/table/")[1].split("/")[0]
    assert server.table(tid).spec.turn_timeout_seconds == 10.0
    other = new_page()
    enter(other, server.url, "Ara")
    tid2 = create_table(other, "bazaar_blot", roles={1: "rule", 2: "rule", 3: "rule"},
                        turn_seconds=25)
    assert server.table(tid2).spec.turn_timeout_seconds == 25.0
