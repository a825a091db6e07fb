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


def test_dry_run_writes_messages_and_sends_nothing(db_url, run_cli, tmp_path):
    setup(run_cli, db_url)
    out = tmp_path / "outbox"
    run_cli(db_url, "notify", "club-1", "--round", "1", "--dry-run", str(out))
    files = sorted(out.glob("*.eml"))
    assert len(files) == 3
    parsed = [email.message_from_bytes(f.read_bytes(), policy=policy.default) for f in files]
    assert {str(m["To"]) for m in parsed} == {"anna@example.org", "bounce@example.org",
                                             "cai@example.org"}
