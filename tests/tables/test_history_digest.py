"""Seeded table play and seeded self-play are byte-identical to the golden recorded on the tree
before the table core was restructured (issue 25): every frame each connection got, every log
entry, every stored history (``historydigest.py``; regenerate with
``python tests/tables/historydigest.py`` only for an intended change of behaviour)."""

from __future__ import annotations

from historydigest import digests

GOLDEN = {
    "bazaar_blot/frames/actor": "227c0476e6c1e2002750ab8226ff1d2f468d830edf99c777c5a5ddb39e2fd422",
    "bazaar_blot/frames/silent": "d529560fb0c0f76ac575d60ba3cdb0be75d9bfd6f00cf237fc3f3fe5f8994ea9",
    "bazaar_blot/frames/watcher": "2b7daff5583a9352d57f232bc49831a8bd721848b82ae98efe7fc56faed456a0",
    "bazaar_blot/log": "08ee45736ed03f2136146da4c40d6c1b043b6b0ab493f459d7bea902d20c7024",
    "bazaar_blot/histories": "ee28ab83485f2862b76b6f7344cc52b6f7d4d8a32cda4687b9a18a4ff27bc8ae",
    "bazaar_blot/counts": "frames=505 log=153 games=1 acted=37",
    "bazaar_blot/selfplay": "d3240192e6e478615c256a247e873e9674692b984924a6f80a895f8068dd3f8b",
    "palace_poker/frames/actor": "e42147ec79e9575da6d615796dbcfae5a1a8b2b3e7b144da6240b827d178f0c8",
    "palace_poker/frames/silent": "c9b69828394c4a09c594b833704594d99eb52c6c6d2c9c8dcba43e868fb8ff82",
    "palace_poker/frames/watcher": "63664197948b345ff7fa624caf0d5f738821a0ee5bfdfbc3472d72486f8f2d8c",
    "palace_poker/log": "d6eb01bc46172cbb484525333d4a63aa4c3ee5aad833783f919c943b084c3b48",
    "palace_poker/histories": "3b91c70f331dc2ff97104b8ac96b3a938362a7078dda8f3e0bfe95ac358795d9",
    "palace_poker/counts": "frames=1228 log=371 games=21 acted=46",
    "palace_poker/selfplay": "bf93c98e82c90ad6d4fe194342ed44a83bbb8263d3efdab522fedba8ee2b3d88",
    "soldiers_bluff/frames/actor": "194b06f5485c2992d0e80b1e65f8c7ba6ca5fc909d9cc109dcada28b514670ca",
    "soldiers_bluff/frames/silent": "b44e8566497661db52e2be3a6850951d1f0558b23acf18ea30f061bf3f4c728c",
    "soldiers_bluff/frames/watcher": "573a4d219d07176c0cf0aff32ad54875c5c0c8bc5ada4b6dad056730aad1a965",
    "soldiers_bluff/log": "279fccc3f2909e2f8960cc5096a5d1e76c8015ccfca28dcce470d1221e792f79",
    "soldiers_bluff/histories": "6fae3be7d305d89842c3b3ed5725e100877f53bab125986486f70fbbb541cc5d",
    "soldiers_bluff/counts": "frames=1190 log=358 games=34 acted=8",
    "soldiers_bluff/selfplay": "cc964fc9858ce5ad142ec66a581a9643f31559ef556f92dac80d73bc50365e72",
}


def test_seeded_tables_and_selfplay_match_the_golden() -> None:
    assert digests() == GOLDEN
