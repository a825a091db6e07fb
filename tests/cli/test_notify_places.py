"""`tourney notify --what results`: a place is said as the pages show it (a shared
place "1="), and "of N" counts the players in the standings of that round (not
one entered from a later round)."""
import email
from email import policy

from tourney.app.evening import RoundResult
from tourney.app.notify import results_message
from tourney.storage.models import Event
from tourney.tournament.standings import StandingRow


def _row(place, name, points, shared):
    return StandingRow(player_id=place * 10 + len(name), player=name, place=place,
                       points=points, tiebreaks={}, decided_by=None, shared=shared)


class Evening:
    """What a results message reads of a player's evening."""

    def __init__(self, rows, result, lang="sv"):
        self.event = Event(slug="club-1", name="Klubbkväll", variant="svarta-maja", lang=lang)
        self.player, self.rows, self.result = "Anna", rows, result

    @property
    def standing(self):
        return next(r for r in self.rows if r.player == self.player)

    def result_of(self, number):
        return self.result

    def rating_change(self, number):
        return None


def test_a_shared_place_is_said_as_the_pages_show_it():
    rows = [_row(1, "Anna", 3, True), _row(1, "Bo", 3, True), _row(3, "Cai", 1, False),
            _row(4, "Dag", 0, False)]
    result = RoundResult(round=1, table="1", place=1, players=4, total=10, match_points=2.5,
                         shared=True)
    message = results_message(Evening(rows, result), 1, "anna@example.org", "http://x/p/1",
                              "club@example.org")
    text = message.get_body(("plain",)).get_content()
    assert "kom du 1= av 4 vid bord 1" in text
    assert "Efter rond 1 ligger du 1= av 4 med 3 poäng." in text
    assert ["1= Anna: 3", "1= Bo: 3", "3. Cai: 1", "4. Dag: 0"] == [
        line for line in text.splitlines() if line[:1].isdigit()]
    html = message.get_body(("html",)).get_content()
    assert "<li>1= Bo: 3</li>" in html
    # the lines carry their places: a numbered list would show "1. 1= Bo: 3"
    assert "<ol" not in html and 'style="list-style: none' in html


def test_an_unshared_place_has_no_mark():
    rows = [_row(1, "Anna", 3, False), _row(2, "Bo", 2, False)]
    result = RoundResult(round=1, table="1", place=1, players=2, total=10, match_points=1)
    text = results_message(Evening(rows, result), 1, "anna@example.org", "http://x/p/1",
                           "club@example.org").get_body(("plain",)).get_content()
    assert "kom du 1 av 2 vid bord 1" in text and "ligger du 1 av 2 med" in text


def _text(rows, result, lang):
    return results_message(Evening(rows, result, lang), 1, "anna@example.org", "http://x/p/1",
                           "club@example.org").get_body(("plain",)).get_content()


def test_one_point_is_said_in_the_singular():
    """A winner at a table of two gets 1 match point, and a player with 1 point in
    the standings has 1 point: English and Finnish say it in the singular, every
    other number (0, 0.5, 2) in the plural."""
    one = [_row(1, "Anna", 1, False), _row(2, "Bo", 0, False)]
    won = RoundResult(round=1, table="1", place=1, players=2, total=10, match_points=1)
    english = _text(one, won, "en")
    assert "score 10, 1 match point." in english and "of 2 with 1 point." in english
    finnish = _text(one, won, "fi")
    assert "yhteensä 10, 1 ottelupiste." in finnish and "sijalla 1/2, 1 piste." in finnish
    half = [_row(1, "Anna", 0.5, True), _row(1, "Bo", 0.5, True)]
    drawn = RoundResult(round=1, table="1", place=1, players=2, total=10, match_points=0.5,
                        shared=True)
    english = _text(half, drawn, "en")
    assert "score 10, ½ match points." in english and "with ½ points." in english
    assert "½ ottelupistettä." in _text(half, drawn, "fi")
    assert "totalt 10, 1 matchpoäng." in _text(one, won, "sv")
    assert "totalt 10, 1 kamppoeng." in _text(one, won, "nb")
    bye_worth = RoundResult(round=1, table="1", place=None, players=2, total=None,
                            match_points=1, kind="forfeit")
    assert "was scored as a forfeit: 1 match point, a bye's worth." in _text(one, bye_worth,
                                                                              "en")
    assert "luovutuksena: 1 ottelupiste, vapaakierroksen verran." in _text(one, bye_worth, "fi")
    absent = RoundResult(round=1, table="1", place=None, players=2, total=None,
                         match_points=0, kind="forfeit", absent=True)
    assert "you did not play, 0 match points." in _text(one, absent, "en")


def test_the_arbiters_adjustment_of_the_round_is_said():
    """A penalty given in the round (`tourney result adjust --round 1`) is in the
    standings' points the message says: the message says it too, with its reason,
    so its numbers add up (a win's 1 match point, less 0.5, is 0.5 points)."""
    row = _row(1, "Anna", 0.5, False)
    row.adjustments = [{"id": 1, "points": -0.5, "reason": "slow play", "round": 1},
                       {"id": 2, "points": 1, "reason": "round 2's", "round": 2}]
    won = RoundResult(round=1, table="1", place=1, players=2, total=10, match_points=1)
    english = _text([row, _row(2, "Bo", 0, False)], won, "en")
    assert "1 match point." in english and "with ½ points." in english
    assert "The arbiter adjusted your points by -½ (slow play)." in english
    assert "round 2's" not in english
    swedish = _text([row, _row(2, "Bo", 0, False)], won, "sv")
    assert "Domaren justerade dina poäng med -½ (slow play)." in swedish


def test_of_counts_the_players_in_that_rounds_standings(db_url, run_cli, tmp_path):
    """A player entered from round 2 is in no row of round 1's standings, nor in
    the count the round 1 e-mail says."""
    for name in ("Anna", "Bo", "Cai", "Dag"):
        run_cli(db_url, "player", "add", name, "--email", f"{name.lower()}@example.org")
    run_cli(db_url, "event", "create", "club-1", "--variant", "svarta-maja",
            "--table-sizes", "4", "--lang", "sv", "--name", "Klubbkväll")
    run_cli(db_url, "event", "enter", "club-1", "--all")
    run_cli(db_url, "round", "seat", "club-1")
    run_cli(db_url, "player", "add", "Eva", "--email", "eva@example.org")
    run_cli(db_url, "event", "enter", "club-1", "Eva", "--from-round", "2")
    records = run_cli(db_url, "simulate", "--event", "club-1", "--round", "1",
                      "--seed", "3").stdout
    path = tmp_path / "round-1.csv"
    path.write_text(records, encoding="utf-8")
    run_cli(db_url, "result", "import", str(path))
    rows = run_cli(db_url, "standings", "club-1", "--round", "1", "--json").json
    assert sorted(r["player"] for r in rows) == ["Anna", "Bo", "Cai", "Dag"]
    out = tmp_path / "outbox"
    run_cli(db_url, "notify", "club-1", "--round", "1", "--what", "results",
            "--outbox", str(out))
    texts = [email.message_from_bytes(f.read_bytes(), policy=policy.default)
             .get_body(("plain",)).get_content() for f in sorted(out.glob("*.eml"))]
    assert len(texts) == 4
    for text in texts:
        assert " av 4 med " in text and " av 5 " not in text


def test_the_score_total_is_named_as_the_pages_total_not_as_points():
    """Found at a club night: the Swedish message said "poäng 81, 0 matchpoäng" and
    then "med 0,33 poäng": the deal scores' sum and the standings' points had one
    word. The sum is now named as the pages' "Total" column names it, in every
    language, and never with the standings' points word."""
    from tourney.app.notify import POINT_WORDS
    from tourney.reports.i18n import translations

    one = [_row(1, "Anna", 1, False), _row(2, "Bo", 0, False)]
    won = RoundResult(round=1, table="1", place=1, players=2, total=81, match_points=1)
    for lang in ("sv", "nb", "fi"):
        total_word = translations(lang).gettext("Total").lower()
        sentence = next(line for line in _text(one, won, lang).splitlines() if "81" in line)
        assert f"{total_word} 81," in sentence, (lang, sentence)
        assert f"{POINT_WORDS[lang][1][1]} 81" not in sentence


def test_the_message_says_its_language():
    """A mail reader reading aloud takes the language from the message: the HTML's
    lang and Content-Language are the event's (Finnish read as Finnish)."""
    rows = [_row(1, "Anna", 1, False), _row(2, "Bo", 0, False)]
    result = RoundResult(round=1, table="1", place=1, players=2, total=10, match_points=1)
    message = results_message(Evening(rows, result, "fi"), 1, "anna@example.org",
                              "http://x/p/1", "club@example.org")
    assert message["Content-Language"] == "fi"
    html = message.get_body(("html",)).get_content()
    assert '<html lang="fi">' in html and "Hei Anna" in html
    parsed = email.message_from_bytes(message.as_bytes(), policy=policy.default)
    assert parsed["Content-Language"] == "fi"


def test_a_half_is_written_as_the_pages_write_it_in_every_language():
    """A drawn match's ½ on the pages was 0,5 in the e-mail (nb): one way per
    language, the pages' (tourney.numbers.halves_text)."""
    half = [_row(1, "Anna", 1.5, False), _row(2, "Bo", 0.5, False)]
    drawn = RoundResult(round=1, table="1", place=1, players=2, total=10, match_points=0.5,
                        shared=True)
    for lang in ("nb", "sv", "fi", "en"):
        text = _text(half, drawn, lang)
        assert "0,5" not in text and "0.5" not in text and "1,5" not in text, lang
        assert "½ kamppoeng." in text if lang == "nb" else "½" in text
    assert "1. Anna: 1½" in _text(half, drawn, "nb")


def test_halves_are_written_with_the_languages_digits_and_sign():
    from tourney.numbers import halves_text

    spelled = str
    assert [halves_text(v, spelled) for v in (0.5, 1.5, 2, 0, -0.5, -2.5, 0.25)] == [
        "½", "1½", "2", "0", "-½", "-2½", None]
