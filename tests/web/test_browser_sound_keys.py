"""The table feel beyond the list (issue 28): sound cues with a remembered mute, the dealing,
playing, gathering and chip animations (none under prefers-reduced-motion), keyboard play
with the shortcut help, and "confirm before playing a card"."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")
from browserkit import create_table, enter, play_until  # after the importorskip

pytestmark = [pytest.mark.slow, pytest.mark.browser]

# Web Audio without a sound card: count the oscillators started (sound.js plays blips)
FAKE_AUDIO = """
window.oscStarts = 0;
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; this.state = "running"; }
  createOscillator() { return { type: "", frequency: { value: 0 }, connect: (g) => g,
    start: () => { window.oscStarts += 1; }, stop: () => {} }; }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
    connect: (d) => d }; }
  resume() {}
};
"""
CUES = "(window.cardhallCues || []).map((x) => x.cue)"
PLAYABLE = ".hand .card[data-act=play]:not([disabled])"


def _blot(page: Any, base: str, name: str, turn_seconds: int = 60) -> str:
    enter(page, base, name)
    return create_table(page, "bazaar_blot", roles={1: "rule", 2: "rule", 3: "rule"},
                        options={"c-cfg-target_score": "101"}, turn_seconds=turn_seconds)


def _to_card_play(page: Any) -> None:
    """Through the auction (pass when asked) to a turn where a card is to be played, never
    clicking a playable card itself: one that turned playable between the check and the
    click was clicked as "any control" (with confirm-before-playing on, that armed it, and
    the test's own first click then played it)."""
    play_until(page, PLAYABLE, ["[data-act=pass]"], seconds=90, avoid=PLAYABLE)


def test_sounds_for_the_turn_a_card_and_the_last_seconds_and_a_remembered_mute(
        server: Any, new_page: Any) -> None:
    page = new_page()
    page.add_init_script(FAKE_AUDIO)
    _blot(page, server.url, "Ana", turn_seconds=4)
    # nothing is done: the own turn is cued, then the clock's last seconds tick
    page.wait_for_function(f"{CUES}.includes('turn')", timeout=20_000)
    page.wait_for_function(f"{CUES}.filter((c) => c === 'tick').length >= 2", timeout=20_000)
    page.wait_for_function(f"{CUES}.includes('card')", timeout=30_000)  # a bot's card
    assert page.evaluate("window.oscStarts") > 0
    cues = page.evaluate("window.cardhallCues")
    assert all(not x["muted"] for x in cues), cues
    # a hand won, a card played, chips: the events' cues
    cue_of = page.evaluate("""async () => { const { cueOf } = await import('/static/js/feel.js');
      return [cueOf({ kind: 'pot_awarded' }, true), cueOf({ kind: 'deal_scored' }, false),
        cueOf({ kind: 'played' }, false), cueOf({ kind: 'raise' }, true), cueOf({ kind: 'call' }, false)]; }""")
    assert cue_of == ["win", "win", "card", "chips", None]
    toggle = page.locator("[data-sound-toggle]")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector(".board")
    assert page.locator("[data-sound-toggle]").get_attribute("aria-pressed") == "true"
    page.evaluate("window.cardhallCues = []; window.oscStarts = 0")
    page.wait_for_function(f"{CUES}.length >= 2", timeout=30_000)  # the table goes on: cues, muted
    assert all(x["muted"] for x in page.evaluate("window.cardhallCues"))
    assert page.evaluate("window.oscStarts") == 0
    page.locator("[data-sound-toggle]").click()  # unmuted again: heard
    page.evaluate("import('/static/js/sound.js').then((m) => m.play('win'))")
    page.wait_for_function("window.oscStarts >= 3")


GATHER_AND_CHIPS = """() => {
  const box = document.createElement('div');
  box.innerHTML = '<div class="trick held"><div class="slot">x</div></div>'
    + '<div class="kv feel-chips"><span class="v">5</span></div>';
  document.body.append(box);
  const name = (sel) => getComputedStyle(box.querySelector(sel)).animationName;
  const out = [name('.trick.held .slot'), name('.feel-chips .v')];
  box.remove();
  return out;
}"""
# every card drawn: where (hand or table), its classes and the animation the CSS gives it
WATCH_CARDS = """
window.cardsDrawn = [];
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (!(n instanceof Element)) continue;
    for (const c of [n, ...n.querySelectorAll('[data-card]')]) {
      if (!c.dataset?.card || !c.isConnected) continue;
      window.cardsDrawn.push({ card: c.dataset.card, hand: Boolean(c.closest('.hand')),
        trick: Boolean(c.closest('.trick')), cls: c.className,
        anim: getComputedStyle(c).animationName });
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


def _drawn(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("window.cardsDrawn"))


def _play_first(page: Any) -> str:
    _to_card_play(page)
    code = str(page.locator(PLAYABLE).first.get_attribute("data-card"))
    page.locator(PLAYABLE).first.click()
    # drawn on the felt (a held trick may go at once when the next trick needs the player)
    page.wait_for_function(f"window.cardsDrawn.some((x) => x.trick && x.card === '{code}')")
    return code


def test_dealing_and_playing_animate_and_not_under_reduced_motion(
        server: Any, new_page: Any) -> None:
    page = new_page()
    page.add_init_script(WATCH_CARDS)
    _blot(page, server.url, "Ana")
    page.wait_for_selector(".hand [data-card]")
    dealt = [x for x in _drawn(page) if x["hand"]]
    assert dealt and all(x["anim"] == "feel-deal" for x in dealt[:5]), dealt[:5]
    assert page.evaluate(GATHER_AND_CHIPS) == ["feel-gather", "feel-chips"]
    code = _play_first(page)
    mine = [x for x in _drawn(page) if x["trick"] and x["card"] == code]
    assert mine[0]["anim"] == "feel-play", mine
    assert "feel-play" in mine[0]["cls"]

    calm = new_page()
    calm.emulate_media(reduced_motion="reduce")
    calm.add_init_script(WATCH_CARDS)
    _blot(calm, server.url, "Bea")
    calm.wait_for_selector(".hand [data-card]")
    assert calm.evaluate(GATHER_AND_CHIPS) == ["none", "none"]
    code = _play_first(calm)
    drawn = _drawn(calm)
    assert any(x["trick"] and x["card"] == code for x in drawn)
    assert all(x["anim"] == "none" and "feel-" not in x["cls"] for x in drawn), \
        [x for x in drawn if x["anim"] != "none" or "feel-" in x["cls"]][:3]


FOCUSED = "document.activeElement?.dataset?.card || null"


def test_keyboard_play_with_the_shortcut_help(server: Any, new_page: Any) -> None:
    page = new_page()
    page.add_init_script(WATCH_CARDS)
    _blot(page, server.url, "Ana")
    page.keyboard.press("?")
    help_box = page.wait_for_selector("[data-keys-help]")
    text = help_box.inner_text()
    assert "Keyboard shortcuts" in text and "Enter" in text and "1–9" in text
    page.keyboard.press("Escape")
    assert page.locator("[data-keys-help]").count() == 0
    assert page.locator("[data-keys]").inner_text() == "⌨ ?"
    _to_card_play(page)
    legal = page.locator(PLAYABLE).evaluate_all("(els) => els.map((e) => e.dataset.card)")
    page.keyboard.press("1")
    assert page.evaluate(FOCUSED) == legal[0]
    page.keyboard.press("ArrowRight")
    after = page.evaluate("document.activeElement?.dataset?.act || null")
    assert after is not None  # the next card or button you may use
    if len(legal) > 1:
        assert page.evaluate(FOCUSED) == legal[1]
    page.keyboard.press(str(min(len(legal), 9)))
    chosen = page.evaluate(FOCUSED)
    assert chosen == legal[min(len(legal), 9) - 1]
    page.keyboard.press("Enter")  # played: it leaves the hand for the trick
    page.wait_for_function(f"window.cardsDrawn.some((x) => x.trick && x.card === '{chosen}')")
    assert page.locator(f".hand [data-card='{chosen}']").count() == 0


def test_confirm_before_playing_a_card_is_remembered_and_asks_a_second_click(
        server: Any, new_page: Any) -> None:
    page = new_page()
    page.add_init_script(WATCH_CARDS)
    _blot(page, server.url, "Ana")
    page.click("[data-keys]")
    page.check("#keys-confirm")
    page.click("[data-close-keys]")
    page.reload()
    page.wait_for_selector(".board")
    page.click("[data-keys]")
    assert page.is_checked("#keys-confirm")
    page.keyboard.press("Escape")
    _to_card_play(page)
    card = page.locator(PLAYABLE).first
    code = card.get_attribute("data-card")
    card.click()  # the first click only marks it
    page.wait_for_selector(f".hand .card.armed[data-card='{code}']")
    assert "press Enter again" in page.locator(".armed-hint").inner_text()
    assert page.locator(f".trick [data-card='{code}']").count() == 0
    page.locator(f".hand [data-card='{code}']").click()
    page.wait_for_function(f"window.cardsDrawn.some((x) => x.trick && x.card === '{code}')")
    assert page.locator(".armed-hint").is_hidden()
