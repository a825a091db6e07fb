"""The peer of ``tourney validate`` for bench/bench_validate.py: OpenSpiel reads a
record CSV of 4-player spardame deals itself and replays every deal with
``apply_action_with_legality_check``. Timed as a whole process, like validate.

Bench-only (``pip install open_spiel``; never a dependency). OpenSpiel's
``hearts`` is set up as in bench/peers.py (OpenSpielHearts): passing and every
special rule off, dealt the hands after spardame's pass to the left, so exactly
spardame's default play is legal. Each row: hands and passes parsed, post-pass
hands dealt (52 chance actions after the one pass-direction outcome), every card
of the play column applied with the legality check, the deal must be over, and
the returns are read. The exit status is 1 if some deal is refused, else 0.

Usage: python bench/openspiel_validate.py FILE.csv
"""
import csv
import sys

import pyspiel

PARAMS = {
    "pass_cards": False, "no_pts_on_first_trick": False, "must_break_hearts": False,
    "can_lead_any_club": False, "qs_breaks_hearts": False, "jd_bonus": False,
    "avoid_all_tricks_bonus": False, "can_lead_hearts_instead_of_qs": False,
}
# OpenSpiel's card action: rank * 4 + suit, suits C D H S.
ACTION = {rank + suit: r * 4 + s
          for r, rank in enumerate("23456789TJQKA") for s, suit in enumerate("CDHS")}
ACTION.update({"10" + suit: ACTION["T" + suit] for suit in "CDHS"})


def main(path: str) -> int:
    game = pyspiel.load_game("hearts", PARAMS)
    new_state = game.new_initial_state
    action = ACTION
    deals = bad = 0
    with open(path, newline="", encoding="utf-8") as stream:
        reader = csv.reader(stream)
        header = next(reader)
        col = {name: i for i, name in enumerate(header)}
        c_hands, c_passes, c_play = col["hands"], col["passes"], col["play"]
        for row in reader:
            deals += 1
            hands = [set(h.split()) for h in row[c_hands].split(";")]
            passes = row[c_passes]
            if passes:
                for seat, cards in enumerate(passes.split(";")):
                    cards = cards.split()
                    hands[seat].difference_update(cards)
                    hands[(seat + 1) % 4].update(cards)
            dealt = [[action[c] for c in h] for h in hands]
            state = new_state()
            try:
                state.apply_action(0)  # the only pass direction: no pass
                for k in range(13):
                    for seat in range(4):
                        state.apply_action(dealt[seat][k])
                play = state.apply_action_with_legality_check
                for card in row[c_play].split():
                    play(action[card])
                if not state.is_terminal():
                    raise RuntimeError("the deal is not over")
                state.returns()
            except (RuntimeError, KeyError, IndexError) as err:
                bad += 1
                print(f"{path}: line {reader.line_num}: {err}", file=sys.stderr)
    print(f"{path}: {deals} deals, {bad} refused", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
