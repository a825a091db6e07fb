"""Results people read right: a drawn checkers game shows as a draw (½ and the "="
mark the legend promises) in the grid, on the match and player pages and in
``rating history``; a bye shows as a bye; checkers pages speak of games and
colours, not deals and dealers; house-rule notes give their amounts."""
from __future__ import annotations

import re

from tourney.records.csv_format import DealRecord, write_records

PLAYERS = ["Alma Berg", "Bror Dahl", "Cleo Ek"]


def checkers_record(slug, round_number, table, players, play, scores, deal=1):
    return DealRecord(line=0, event=slug, variant="dam-brade", round=round_number,
                      table=table, deal=deal, players=list(players), dealer=None, hands=None,
                      secrets=None, stock=None, passes=None, play=play, scores=scores)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_a_drawn_checkers_game_reads_as_a_draw(tourney, tmp_path):
    for name in PLAYERS:
        tourney("player", "add", name)
    tourney("event", "create", "draw-cup", "--variant", "dam-brade", "--rounds", "1",
            "--table-sizes", "2", "--seed", "3")
    tourney("event", "enter", "draw-cup", "--all")
    seating = tourney("round", "seat", "draw-cup", "--json").json
    (table,) = seating["tables"]
    (bye,) = seating["byes"]
    path = tmp_path / "r1.csv"
    with open(path, "w", encoding="utf-8", newline="") as stream:
        write_records(stream, [checkers_record("draw-cup", 1, table["table"], table["seats"],
                                               ["11-15", "1/2-1/2"], ["0.5", "0.5"])])
    tourney("result", "import", str(path))

    # rating history: the shared place is marked, in text and JSON
    black = table["seats"][0]
    history = tourney("rating", "history", black)
    assert "1=/2" in history.stdout and "= a shared place (a draw)" in history.stderr
    assert tourney("rating", "history", black, "--json").json[0]["shared"] is True

    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en")
    (event_dir,) = site.glob("events/*/")
    grid = (event_dir / "index.html").read_text(encoding="utf-8")
    grid_section = text_of(grid.split('id="grid"')[1].split("</section>")[0])
    assert grid_section.count("1=/2") == 2 and grid_section.count("½") >= 2
    assert "bye" in grid_section and "= marks a shared place." in grid_section

    (match_page,) = [p for p in event_dir.glob("match-*.html") if "-deal-" not in p.name]
    match_html = match_page.read_text(encoding="utf-8")
    match_text = text_of(match_html)
    # games and colours, not deals and dealers
    assert "Games" in match_text and "Black" in match_text
    assert "deal" not in match_text.lower()
    assert match_text.count("1=") >= 2 and "½" in match_text

    (replay,) = event_dir.glob("match-*-deal-*.html")
    replay_text = text_of(replay.read_text(encoding="utf-8"))
    assert "game 1" in replay_text and "deal" not in replay_text.lower().replace("dealt", "")
    assert "Drawn by agreement" in replay_text and f"Black: {black}" in replay_text

    round_text = text_of((event_dir / "round-1.html").read_text(encoding="utf-8"))
    assert "Seat 1 plays Black in the first game." in round_text

    player_pages = {p.read_text(encoding="utf-8") for p in site.glob("players/*.html")}
    black_page = next(text_of(p) for p in player_pages if f"<h1>{black}" in p
                      or f">{black}</bdi></h1>" in p or f"{black}</h1>" in p)
    assert "1=/2" in black_page and "½" in black_page
    # the player who sat the round out has it on their page as a bye, with its points
    bye_page = next(p for p in player_pages if f"{bye}</h1>" in p or f">{bye}</bdi></h1>" in p)
    matches_section = bye_page.split('id="matches"')[1].split("</section>")[0]
    bye_row = re.search(r'<tr>\s*<td class="title bye">(.*?)</tr>', matches_section, re.S)
    assert bye_row is not None, matches_section
    assert text_of(bye_row.group(1)).split() == ["draw-cup", "1", "bye", "1", "–", "–"]


def test_house_rule_sentences_and_deal_notes_give_their_amounts(tourney, tmp_path):
    import random

    from site_helpers import EventSpec, play_rounds

    players = ["Dora Falk", "Egil Gran", "Fia Holm", "Gun Ivarsson"]
    tourney("player", "add", *players)
    spec = EventSpec("jd-cup", "spardame", "JD cup", 1,
                     {"jd_bonus": "-100", "no_trick_bonus": "-50", "deals": "2"}, "4",
                     players=players)
    tourney("event", "create", spec.slug, "--variant", "spardame", "--rounds", "1",
            "--table-sizes", "4", "--rule", "jd_bonus=-100", "--rule", "no_trick_bonus=-50",
            "--rule", "deals=2")
    tourney("event", "enter", spec.slug, "--all")
    play_rounds(lambda _url, *args: tourney(*args), None, tmp_path, spec, random.Random(5))
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "en")
    (event_dir,) = site.glob("events/*/")
    rules = text_of((event_dir / "index.html").read_text(encoding="utf-8"))
    amount = r"[−-]\s?100"
    assert re.search(rf"The jack of diamonds scores {amount}\.", rules), rules
    assert re.search(r"A player who takes no trick scores [−-]\s?50\.", rules)
    assert "bonus" not in rules.lower()
    replays = [text_of(p.read_text(encoding="utf-8")) for p in event_dir.glob("match-*-deal-*.html")]
    assert replays and all(re.search(rf"took the jack of diamonds: {amount}", r) for r in replays)
    assert not any(re.search(r"\bbonus\b", r.lower()) for r in replays)
