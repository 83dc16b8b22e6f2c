"""Seeded table play and seeded self-play are byte-identical to the golden recorded on the tree
before the table core was restructured (issue 25): every frame each connection got, every log
entry, every stored history (``historydigest.py``; regenerate with
``python tests/tables/historydigest.py`` only for an intended change of behaviour). Issue 28
changed the frames only: a stand-in's seat is not ``connected``, and its holder watching it
keeps its own cards in sight (``Fanout.held_seat``); and, at Soldier's Bluff tables, the
house's refill of a built-in bot's stack is now a public ``rebuy`` table event in every frame
(histories and logs unchanged)."""

from __future__ import annotations

from historydigest import digests

GOLDEN = {
    "bazaar_blot/frames/actor": "f69e6b4c6829a9d5a2c46c08eb3cfc8abaa4488bc688c66c026405ec506b427e",
    "bazaar_blot/frames/silent": "39776c3de9673ba0d65774e2dc6c55752907ce9f9abac085642f92209f809c40",
    "bazaar_blot/frames/watcher": "5230b4bdac44fb0dff7672eebfc659da883540e224757abc1009759d1f243f5f",
    "bazaar_blot/log": "08ee45736ed03f2136146da4c40d6c1b043b6b0ab493f459d7bea902d20c7024",
    "bazaar_blot/histories": "ee28ab83485f2862b76b6f7344cc52b6f7d4d8a32cda4687b9a18a4ff27bc8ae",
    "bazaar_blot/counts": "frames=505 log=153 games=1 acted=37",
    "bazaar_blot/selfplay": "d3240192e6e478615c256a247e873e9674692b984924a6f80a895f8068dd3f8b",
    "palace_poker/frames/actor": "a57365f9389d422812f15a7fb9e336a2ac7106b0af025e918a31f518d1e8d5c9",
    "palace_poker/frames/silent": "6ec824c5ea5d1e46161f7690bb54fa8d494297672c7f029e42459c432ee9f5a3",
    "palace_poker/frames/watcher": "8f3a0164d518dbb0c21a1068837dc3fc91c583200b55afedc0adb27696330987",
    "palace_poker/log": "d6eb01bc46172cbb484525333d4a63aa4c3ee5aad833783f919c943b084c3b48",
    "palace_poker/histories": "3b91c70f331dc2ff97104b8ac96b3a938362a7078dda8f3e0bfe95ac358795d9",
    "palace_poker/counts": "frames=1228 log=371 games=21 acted=46",
    "palace_poker/selfplay": "bf93c98e82c90ad6d4fe194342ed44a83bbb8263d3efdab522fedba8ee2b3d88",
    "soldiers_bluff/frames/actor": "d250ab3272133e7059448e1e99e6dbcc7cd80eabf112845c73a594e19fb84ea7",
    "soldiers_bluff/frames/silent": "3eeba3db90b732cd2054abb6dac364f56d3b4d1544f8b5af9f49358ef7090cd0",
    "soldiers_bluff/frames/watcher": "38c2aefc1b731be6bc3ac4362041d9511c48806bd9184c95d15cbccfcfff2bd8",
    "soldiers_bluff/log": "279fccc3f2909e2f8960cc5096a5d1e76c8015ccfca28dcce470d1221e792f79",
    "soldiers_bluff/histories": "6fae3be7d305d89842c3b3ed5725e100877f53bab125986486f70fbbb541cc5d",
    "soldiers_bluff/counts": "frames=1190 log=358 games=34 acted=8",
    "soldiers_bluff/selfplay": "cc964fc9858ce5ad142ec66a581a9643f31559ef556f92dac80d73bc50365e72",
}


def test_seeded_tables_and_selfplay_match_the_golden() -> None:
    assert digests() == GOLDEN
