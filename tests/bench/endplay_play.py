#!/usr/bin/env python3
"""endplay's play analysis, for the fixture of tests/tests/dd_play.rs.

Usage:
    endplay_play.py --seed S --count N
    endplay_play.py --traces FILE

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

`--traces FILE`: the plays that tests/tests/dd_play.rs reads from
generated games and the corpus (its ignored test `write_traces` writes
FILE), one a line: `key<TAB>deal<TAB>trump<TAB>leader<TAB>cards` (cards
space-separated in playing order). Prints the compact fixture
tests/fixtures/dd/play_endplay.tsv, one line a play:

    key<TAB>t0<TAB>n<TAB>costs<TAB>leads

`t0`: the tricks of the side not on lead before the first card; `n`: how
many values `analyse_play` gave; `costs`: each card that gave tricks away,
`i:lost:better` (0-based index in the play, tricks lost, the cards that
would have kept them, comma-separated, sorted), space-separated; as no
card gains a trick double dummy, `t0` and the costs give every value;
`leads`: for a key starting with `gen:`, the tricks of the leader's side
after each card of the leader's hand in the deal's order (spades to clubs,
high to low), one hexadecimal digit a card; `-` otherwise.

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


def analysed(deal, trump, leader, play, analyse_play, solve_board):
    """`analyse_play`'s values and the better cards before each costly card."""
    start = deal.copy()
    before = []
    cur = deal.copy()
    for card in play:
        before.append(cur.copy())
        cur.play(card)
    tricks = list(analyse_play(start, play))
    better = {}
    for i in range(min(len(play), len(tricks) - 1)):
        mover_declarer = (before[i].curplayer.value - leader.value) % 2 == 1
        lost = tricks[i] - tricks[i + 1] if mover_declarer else tricks[i + 1] - tricks[i]
        if lost > 0:
            scores = list(solve_board(before[i]))
            best = max(s for _, s in scores)
            better[i] = (lost, sorted(card_text(c) for c, s in scores if s == best))
    return tricks, better


def traces(path: str) -> None:
    try:
        import endplay
        from endplay.dds import analyse_play, solve_board
        from endplay.types import Card, Deal, Denom, Player
    except Exception as e:
        fail(2, f"cannot import endplay: {e!r}")
    denoms = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds,
              "C": Denom.clubs, "N": Denom.nt}
    players = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
    print(f"# tests/bench/endplay_play.py --traces FILE (FILE from dd_play.rs write_traces; "
          f"endplay {endplay.__version__}): key, t0, n, costs (i:lost:better), leads")
    with open(path) as f:
        for line in f:
            key, pbn, trump, first, cards = line.rstrip("\n").split("\t")
            deal = Deal(pbn)
            deal.trump = denoms[trump]
            deal.first = players[first]
            play = [Card(c) for c in cards.split()]
            tricks, better = analysed(deal, deal.trump, deal.first, play,
                                      analyse_play, solve_board)
            costs = " ".join(f"{i}:{lost}:{','.join(b)}" for i, (lost, b) in sorted(better.items()))
            leads = "-"
            if key.startswith("gen:"):
                scores = {card_text(c): s for c, s in solve_board(deal)}
                hand = pbn[2:].split(" ")["NESW".index(first) - "NESW".index(pbn[0])]
                order = [s + r for s, holding in zip("SHDC", hand.split(".")) for r in holding]
                leads = "".join(f"{scores[c]:x}" for c in order)
            print(f"{key}\t{tricks[0]}\t{len(tricks)}\t{costs}\t{leads}")


def main(args) -> None:
    if "--traces" in args:
        try:
            path = args[args.index("--traces") + 1]
        except IndexError:
            fail(1, "usage: endplay_play.py --traces FILE")
        traces(path)
        return
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
