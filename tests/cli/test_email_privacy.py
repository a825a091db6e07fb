"""E-mail addresses stay private: not in the published site, nor in the event's
JSON and exports, nor in the players' links."""
from pathlib import Path

ADDRESS = "anna.secret@example.org"


def test_no_address_in_the_site_or_exports(db_url, run_cli, tmp_path):
    run_cli(db_url, "player", "add", "Anna", "--email", ADDRESS)
    run_cli(db_url, "player", "add", "Bo", "Cecilia", "Dag")
    run_cli(db_url, "event", "create", "club-1", "--variant", "svarta-maja",
            "--table-sizes", "4")
    run_cli(db_url, "event", "enter", "club-1", "--all")
    run_cli(db_url, "round", "seat", "club-1")
    outputs = [run_cli(db_url, *args).stdout for args in (
        ("event", "show", "club-1", "--json"),
        ("round", "show", "club-1", "1", "--json"),
        ("standings", "club-1", "--json"),
        ("player", "links", "club-1", "--json"),
        ("round", "sheet", "club-1", "1"),
    )]
    assert all(ADDRESS not in out and "example.org" not in out for out in outputs)
    site = tmp_path / "site"
    run_cli(db_url, "publish", "--out", str(site))
    files = [p for p in Path(site).rglob("*") if p.is_file()]
    assert any(b"Anna" in p.read_bytes() for p in files)  # the player is on the site
    leaked = [str(p) for p in files if ADDRESS.encode() in p.read_bytes()]
    assert leaked == []
