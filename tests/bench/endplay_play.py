#!/usr/bin/env python3
"""endplay's play analysis, for the fixture of tests/tests/dd_play.rs.

Usage:
    endplay_play.py --seed S --count N

N random games from Python's `random.Random(S)`: a shuffled pack, a random
trump and opening leader, and a random legal play (most games played to the
end, some stopped early). For each, endplay's `analyse_play` (DDS's
AnalysePlayBin: tricks of the side not on lead after each card), the
cards that would have kept the tricks before each card that lost some
(`solve_board` on the position before it: the cards with the best score),
and the opening leads (`solve_board` at the first trick: every card with
the tricks of the leader's side). Prints the JSON of
tests/fixtures/dd/play_endplay.json:

    {"generator": "...", "games": [{"deal": "N:...", "trump": "S",
      "leader": "W", "play": ["HA", ...], "tricks": [7, 7, 6, ...],
      "better": {"3": ["SK", "SQ"]}, "leads": {"SA": 6, ...}}, ...]}

DDS does not analyse the last trick, so `tricks` may hold fewer than
len(play) + 1 values; the test compares those it has.

Exit status 2 when endplay cannot be imported, 1 on bad arguments.
"""

import json
import random
import sys


def fail(status: int, message: str) -> None:
    print(f"endplay_play.py: {message}", file=sys.stderr)
    sys.exit(status)


def card_text(c) -> str:
    return "SHDC"[c.suit.value] + "23456789TJQKA"[c.rank.value.bit_length() - 3]


def main(args) -> None:
    try:
        seed = int(args[args.index("--seed") + 1])
        count = int(args[args.index("--count") + 1])
    except (ValueError, IndexError):
        fail(1, "usage: endplay_play.py --seed S --count N")
    try:
        import endplay
        from endplay.dds import analyse_play, solve_board
        from endplay.types import Deal, Denom, Player
    except Exception as e:
        fail(2, f"cannot import endplay: {e!r}")
    rng = random.Random(seed)
    pack = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    trumps = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]
    games = []
    for _ in range(count):
        rng.shuffle(pack)
        hands = [pack[13 * i : 13 * i + 13] for i in range(4)]
        pbn = "N:" + " ".join(
            ".".join(
                "".join(c[1] for c in sorted((c for c in h if c[0] == s),
                                             key=lambda c: "AKQJT98765432".index(c[1])))
                for s in "SHDC"
            )
            for h in hands
        )
        trump = rng.choice(trumps)
        leader = rng.choice([Player.north, Player.east, Player.south, Player.west])
        deal = Deal(pbn)
        deal.trump = trump
        deal.first = leader
        length = 52 if rng.random() < 0.8 else rng.randrange(1, 52)
        play = []
        before = []
        for _ in range(length):
            before.append(deal.copy())
            card = rng.choice(list(deal.legal_moves()))
            play.append(card_text(card))
            deal.play(card)
        start = Deal(pbn)
        start.trump = trump
        start.first = leader
        tricks = list(analyse_play(start, play))
        better = {}
        for i in range(min(len(play), len(tricks) - 1)):
            mover_declarer = i < len(before) and (
                (before[i].curplayer.value - leader.value) % 2 == 1
            )
            lost = tricks[i] - tricks[i + 1] if mover_declarer else tricks[i + 1] - tricks[i]
            if lost > 0:
                scores = list(solve_board(before[i]))
                best = max(s for _, s in scores)
                better[str(i)] = sorted(card_text(c) for c, s in scores if s == best)
        leads = {card_text(c): s for c, s in solve_board(start)}
        games.append(
            {
                "deal": pbn,
                "trump": "SHDCN"[trumps.index(trump)],
                "leader": "NESW"[leader.value],
                "play": play,
                "tricks": tricks,
                "better": better,
                "leads": leads,
            }
        )
    print(json.dumps({
        "generator": f"tests/bench/endplay_play.py --seed {seed} --count {count} "
                     f"(endplay {endplay.__version__})",
        "games": games,
    }, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
