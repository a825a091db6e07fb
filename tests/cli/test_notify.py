"""`tourney notify`: real messages through aiosmtpd on loopback, read back and
parsed; sent once unless --resend; a failing address does not stop the rest."""
import email
import socket
from email import policy

import pytest

aiosmtpd = pytest.importorskip("aiosmtpd")
from aiosmtpd.controller import Controller  # noqa: E402


class Inbox:
    def __init__(self):
        self.messages = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("bounce"):
            return "550 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content,
                                                      policy=policy.default))
        return "250 OK"


@pytest.fixture
def smtp_server():
    inbox = Inbox()
    with socket.socket() as probe:  # a free port (the controller cannot take 0)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, f"smtp://127.0.0.1:{port}"
    finally:
        controller.stop()


def setup(run_cli, db_url):
    for name, address in (("Anna", "anna@example.org"), ("Bo", "bounce@example.org"),
                          ("Cai", "cai@example.org")):
        run_cli(db_url, "player", "add", name, "--email", address)
    run_cli(db_url, "player", "add", "Dag")  # no address
    run_cli(db_url, "event", "create", "club-1", "--variant", "svarta-maja",
            "--table-sizes", "4", "--lang", "sv", "--name", "Klubbkväll")
    run_cli(db_url, "event", "enter", "club-1", "--all")
    run_cli(db_url, "round", "seat", "club-1")


def test_seating_is_sent_once_in_the_events_language(db_url, run_cli, smtp_server):
    inbox, url = smtp_server
    setup(run_cli, db_url)
    seats = run_cli(db_url, "round", "show", "club-1", "1", "--json").json["tables"][0]["seats"]
    result = run_cli(db_url, "notify", "club-1", "--round", "1", "--what", "seating",
                     "--smtp", url, "--from", "club@example.org", "--base-url",
                     "http://venue:8000", "--json", exit_code=1)
    details = result.json["details"]
    assert sorted(details["sent"]) == ["Anna", "Cai"] and list(details["failed"]) == ["Bo"]
    assert details["no_address"] == ["Dag"] and "Bo" in result.stderr
    # the mail server's refusal as it said it, not a Python dict of bytes
    assert details["failed"]["Bo"] == "bounce@example.org: 550 no such mailbox"
    assert "bounce@example.org: 550 no such mailbox" in result.stderr
    assert "{" not in result.stderr and "b'" not in result.stderr
    by_to = {str(m["To"]): m for m in inbox.messages}
    assert sorted(by_to) == ["anna@example.org", "cai@example.org"]
    anna = by_to["anna@example.org"]
    assert anna["From"] == "club@example.org" and anna["Date"] and anna["Message-ID"]
    assert anna["Subject"] == "Klubbkväll, rond 1: bord 1"
    text = anna.get_body(("plain",)).get_content()
    html = anna.get_body(("html",)).get_content()
    seat = seats.index("Anna") + 1
    assert f"bord 1, plats {seat}" in text and "Hej Anna" in text
    links = {r["player"]: r["url"] for r in run_cli(db_url, "player", "links", "club-1",
                                                    "--base-url", "http://venue:8000",
                                                    "--json").json}
    assert links["Anna"] in text and f'href="{links["Anna"]}"' in html
    # a re-run sends nothing twice (Bo's failure is tried again)
    again = run_cli(db_url, "notify", "club-1", "--round", "1", "--smtp", url, "--json",
                    exit_code=1).json["details"]
    assert again["sent"] == [] and sorted(again["skipped"]) == ["Anna", "Cai"]
    assert len(inbox.messages) == 2
    run_cli(db_url, "notify", "club-1", "--round", "1", "--smtp", url, "--resend",
            exit_code=1)
    assert len(inbox.messages) == 4


def test_outbox_gets_the_messages_and_nothing_is_sent(db_url, run_cli, tmp_path):
    setup(run_cli, db_url)
    out = tmp_path / "outbox"
    run_cli(db_url, "notify", "club-1", "--round", "1", "--outbox", str(out))
    files = sorted(out.glob("*.eml"))
    assert len(files) == 3
    parsed = [email.message_from_bytes(f.read_bytes(), policy=policy.default) for f in files]
    assert {str(m["To"]) for m in parsed} == {"anna@example.org", "bounce@example.org",
                                             "cai@example.org"}


def _play_round(run_cli, db_url, tmp_path, number=1):
    records = run_cli(db_url, "simulate", "--event", "club-1", "--round", str(number),
                      "--seed", "3").stdout
    path = tmp_path / f"round-{number}.csv"
    path.write_text(records, encoding="utf-8")
    run_cli(db_url, "result", "import", str(path))


def test_results_tell_each_player_their_match_standing_and_rating(db_url, run_cli, smtp_server,
                                                                  tmp_path):
    inbox, url = smtp_server
    setup(run_cli, db_url)
    # Before any result there is nothing to tell.
    early = run_cli(db_url, "notify", "club-1", "--round", "1", "--what", "results",
                    "--smtp", url, exit_code=1)
    assert "has no results yet" in early.stderr and inbox.messages == []
    _play_round(run_cli, db_url, tmp_path)
    result = run_cli(db_url, "notify", "club-1", "--round", "1", "--what", "results",
                     "--smtp", url, "--from", "club@example.org", "--base-url",
                     "http://venue:8000", "--json", exit_code=1).json["details"]
    assert sorted(result["sent"]) == ["Anna", "Cai"] and list(result["failed"]) == ["Bo"]
    anna = next(m for m in inbox.messages if str(m["To"]) == "anna@example.org")
    assert anna["Subject"] == "Klubbkväll, rond 1: ditt resultat"
    text = anna.get_body(("plain",)).get_content()
    html = anna.get_body(("html",)).get_content()
    # Worked out here from the CLI's own answers, not from the message.
    rows = run_cli(db_url, "standings", "club-1", "--json").json
    mine = next(r for r in rows if r["player"] == "Anna")
    assert f"Efter rond 1 ligger du {mine['place']} av 4 med " in text
    [entry] = run_cli(db_url, "rating", "history", "Anna", "--json").json
    change = entry["ordinal_after"] - entry["ordinal_before"]
    after = f"{entry['ordinal_after']:.1f}".replace(".", ",").replace("-", "−")
    sign = "+" if change > 0 else "−"
    assert f"Din rating: {after} ({sign}{abs(change):.1f})".replace(".", ",") in text.replace(
        "\xa0", " ").replace("-", "−")
    assert f"kom du {entry['place']} av 4 vid bord 1" in text
    assert "Toppen av ställningen:" in text
    # each place as the standings show it: "2= Cai" where shared, "1. Bo" where not
    top = [line for line in text.splitlines() if line[:1] and line[:1] in "1234" and line[1:2] in ".="]
    assert [line.split(":")[0] for line in top] == [
        f"{r['place']}= {r['player']}" if r["shared"] else f"{r['place']}. {r['player']}"
        for r in rows]
    links = {r["player"]: r["url"] for r in run_cli(db_url, "player", "links", "club-1",
                                                    "--base-url", "http://venue:8000",
                                                    "--json").json}
    assert links["Anna"] in text and f'href="{links["Anna"]}"' in html
    assert "none; padding-left: 0\"><li>" in html and "Hej Anna" in html
    # Results and seating are logged apart: the seating can still be sent, results not twice.
    again = run_cli(db_url, "notify", "club-1", "--round", "1", "--what", "results",
                    "--smtp", url, "--json", exit_code=1).json["details"]
    assert again["sent"] == [] and sorted(again["skipped"]) == ["Anna", "Cai"]
    seating = run_cli(db_url, "notify", "club-1", "--round", "1", "--what", "seating",
                      "--smtp", url, "--json", exit_code=1).json["details"]
    assert sorted(seating["sent"]) == ["Anna", "Cai"]


def _club_night_of_eight(db_url, run_cli) -> list[str]:
    """Eight players with addresses in `club-1` (svarta-maja, tables of 4), round 1
    seated: their names."""
    names = [f"P{i}" for i in range(8)]
    for name in names:
        run_cli(db_url, "player", "add", name, "--email", f"{name.lower()}@example.org")
    run_cli(db_url, "event", "create", "club-1", "--variant", "svarta-maja",
            "--table-sizes", "4", "--name", "Club night")
    run_cli(db_url, "event", "enter", "club-1", "--all")
    run_cli(db_url, "round", "seat", "club-1")
    return names


def test_results_wait_for_a_table_whose_result_is_not_in(db_url, run_cli, smtp_server, tmp_path):
    inbox, url = smtp_server
    _club_night_of_eight(db_url, run_cli)
    records = run_cli(db_url, "simulate", "--event", "club-1", "--round", "1", "--seed", "3").stdout
    lines = records.splitlines()
    header, rows = lines[0], lines[1:]
    table_column = header.split(",").index("table")
    first = [r for r in rows if r.split(",")[table_column] == "1"]
    path = tmp_path / "table-1.csv"
    path.write_text("\n".join([header, *first]) + "\n", encoding="utf-8")
    run_cli(db_url, "result", "import", str(path))
    tables = {t["table"]: t["seats"] for t in
              run_cli(db_url, "round", "show", "club-1", "1", "--json").json["tables"]}
    report = run_cli(db_url, "notify", "club-1", "--round", "1", "--what", "results",
                     "--smtp", url, "--json").json["details"]
    assert sorted(report["sent"]) == sorted(tables["1"])
    assert sorted(report["not_ready"]) == sorted(tables["2"])
    assert sorted(str(m["To"]).split("@")[0] for m in inbox.messages) == sorted(
        n.lower() for n in tables["1"])
    assert inbox.messages[0]["Subject"] == "Club night, round 1: your result"


def test_results_go_to_the_players_of_a_forfeited_table(db_url, run_cli, smtp_server, tmp_path):
    """A forfeited table never has a result: its players are told the forfeit (the
    absent player 0 match points, the others a bye's worth) instead of waiting for
    a result forever (`not_ready`)."""
    inbox, url = smtp_server
    names = _club_night_of_eight(db_url, run_cli)
    tables = {t["table"]: t["seats"] for t in
              run_cli(db_url, "round", "show", "club-1", "1", "--json").json["tables"]}
    gone = tables["2"][0]
    run_cli(db_url, "result", "forfeit", "club-1", "1", "2", "--absent", gone)
    _play_round(run_cli, db_url, tmp_path)  # table 1 (table 2 is forfeited)
    report = run_cli(db_url, "notify", "club-1", "--round", "1", "--what", "results",
                     "--smtp", url, "--json").json["details"]
    assert report["not_ready"] == []
    assert sorted(report["sent"]) == sorted(names)
    points = {r["player"]: r["points"] for r in
              run_cli(db_url, "standings", "club-1", "--json").json}
    by_to = {str(m["To"]).split("@")[0]: m.get_body(("plain",)).get_content()
             for m in inbox.messages}
    assert ("in round 1 of Club night table 2 was scored as a forfeit: you did not play, "
            "0 match points.") in by_to[gone.lower()]
    for name in tables["2"][1:]:
        assert (f"in round 1 of Club night table 2 was scored as a forfeit: "
                f"{points[name]:g} match point{'' if points[name] == 1 else 's'}, "
                "a bye's worth.") in by_to[name.lower()]
    for name in tables["1"]:
        assert "came" in by_to[name.lower()] and "forfeit" not in by_to[name.lower()]
