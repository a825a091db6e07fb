"""`tourney publish`: the static standings site."""
from __future__ import annotations

import click

from tourney.app.site import SETTINGS, set_setting, site_settings
from tourney.errors.counts import count_text
from tourney.errors.words import quoted
from tourney.storage.db import reading, transaction

from .database import db_option, open_db, refuse_overwrites
from .output import (
    CommandGroup,
    confirm,
    delimited_flags,
    emit_json,
    emit_table,
    json_option,
    message,
    report_change,
    yes_option,
)


@click.command()
@click.option("--out", "out", required=True, metavar="DIR",
              type=click.Path(file_okay=False),
              help="Write the site into this folder: created if missing; an existing "
                   "one must be empty or hold an earlier published site, which is replaced.")
@click.option("--event", "events", multiple=True, metavar="SLUG",
              help="Build deal replays only for this event (repeatable). Every event's "
                   "standings, rounds and matches are published regardless.")
@click.option("--lang", "langs", multiple=True, metavar="LANG",
              help="A language of the site (repeatable: en, sv, nb, fi). The first is the "
                   "folder itself, each other one a subfolder. Default: the languages "
                   "of the last publish into DIR; for a new site the events' "
                   "languages, else en.")
@click.option("--no-replays", is_flag=True, help="Publish no deal replays at all.")
@click.option("--jobs", type=int, default=0, metavar="N",
              help="Render in N processes. Default 0: one per CPU when there are "
                   "enough pages to render to gain from it; each process reads the "
                   "database on its own.")
@click.option("--full", is_flag=True,
              help="Render every page, even those unchanged since the last publish "
                   "(by default they are reused as they are).")
@click.option("--force", is_flag=True,
              help="Publish even though DIR holds files publish did not write, "
                   "dropping them (by default they are kept, e.g. CNAME or .htaccess, "
                   "and one where the site puts a page is refused).")
@yes_option
@json_option
@db_option
def publish(out, events, langs, no_replays, jobs, full, force, yes, as_json, db_url):
    """Publish standings, seat lists, results, replays and ratings as a static site.

    Every event gets its standings (with the tie-break columns), each round's seat
    list, a results grid and its rules in words; every match its deals and scores,
    and every deal with moves a replay readable without JavaScript; every player a
    page with events, matches and rating charts. Links are relative, so the folder
    works from any web server path or straight from disk.

    The site is built beside DIR and swapped in at once: readers never see half a
    site. Player pages keep their URL (players/<id>.html) across publishes. Pages
    whose content did not change since the last publish are reused byte for byte
    (only the index says when the site was published), so a publish after one
    more round renders only what the round changed.

    Without --lang the site keeps the languages of the last publish into DIR
    (`--lang sv --lang en` once is enough); name --lang again to change them.

    Files in DIR that publish did not write (CNAME, .htaccess, robots.txt, a PDF
    beside an event's pages) are left as they are; publish refuses if
    one is where the new site puts a page, and --force drops them all. The
    database is never allowed inside DIR. Folders that a killed publish left
    beside DIR (.DIR.publishing-*, .DIR.old-*, holding publish's marker) are
    removed by the next publish; nothing else beside DIR is touched.

    \b
    Examples:
      tourney publish --out site/
      tourney publish --out site/ --lang sv --lang en
      tourney publish --out site/ --event club-2024-05   # replays of one event only
    """
    refuse_overwrites(db_url, {"--out": out}, replace=True)  # (DIR's own rules in publish)
    if force:
        confirm(f"--force drops every file in {out} that publish did not write "
                "(CNAME, .htaccess, ...). Go on?", yes)
    # The site's builder (jinja2, babel, the pages): loaded by publish alone, not by
    # `tourney site show` or `site set`, which share this module
    from tourney.app.publish import describe, publish_site

    engine = open_db(db_url, read_only=True)
    report = publish_site(engine, out, events=events, langs=langs, replays=not no_replays,
                          background_cleanup=True, jobs=jobs, force=force,
                          incremental=not full)
    if report.kept:
        message(f"kept {count_text(len(report.kept), 'file')} publish did not write: "
                + str(describe(report.kept)))
    if report.dropped:
        message(f"dropped {count_text(len(report.dropped), 'file')} publish did not write "
                f"({'--force' if force else 'symbolic links are never carried'}): "
                + str(describe(report.dropped)))
    if report.languages_from == "last publish":
        message(f"languages as in the last publish into {out}: "
                f"{', '.join(report.languages)} (--lang chooses others)")
    if report.missing_catalogues:
        message("no translation yet for " + ", ".join(report.missing_catalogues)
                + ": those pages show English text with local dates and numbers")
    report_change("publish", report.changed, publish_summary(report), as_json,
                  **report.to_json())


def publish_summary(report) -> str:
    """What publish did, in one line: how many pages were rendered or reused, and
    what changed against the site it replaced."""
    pages = count_text(report.pages, "page")
    if report.unchanged:
        done = f"nothing changed since the last publish: {pages} left as they were"
    elif report.changed_files is None:
        done = f"published {pages}, all new"
    else:
        done = (f"published {pages} ({report.rendered} rendered, "
                f"{report.pages - report.rendered} reused): ")
        if report.changed_files or report.removed_files:
            done += f"{count_text(report.changed_files, 'page')} changed"
            if report.removed_files:
                done += f", {report.removed_files} removed"
        else:
            done += "nothing changed"
            if report.stamp_only:
                done += (" but the publication time on "
                         + count_text(len(report.stamp_only), "page"))
    return (f"{done} ({count_text(report.events, 'event')}, "
            f"{count_text(report.players, 'player')}, "
            f"{count_text(report.matches, 'match')}, "
            f"{count_text(report.replays, 'replay')}; languages: "
            f"{', '.join(report.languages)}) to {report.out} in {report.seconds:.1f} s")


@click.group("site", cls=CommandGroup)
def site():
    """The published site's settings, kept in the database: its title, the
    organisation behind it and its address on the web. `tourney publish` uses them.

    \b
    Examples:
      tourney site set title "Göteborgs Damklubb"
      tourney site set organisation "Göteborgs Damklubb, since 1931"
      tourney site set url https://dam.example.org/
      tourney site show --json
    """


@site.command("set")
@click.argument("key", type=click.Choice(sorted(SETTINGS)), metavar="KEY")
@click.argument("value")
@json_option
@db_option
def set_(key, value, as_json, db_url):
    """Set a site setting: title, organisation or url.

    \b
    Examples:
      tourney site set title "Göteborgs Damklubb"
      tourney site set url https://dam.example.org/
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        before, after = set_setting(session, key, value)
    _changed(key, before, after, as_json)


@site.command("unset")
@click.argument("key", type=click.Choice(sorted(SETTINGS)), metavar="KEY")
@json_option
@db_option
def unset(key, as_json, db_url):
    """Clear a site setting (the title goes back to the default).

    \b
    Example:
      tourney site unset organisation
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        before, after = set_setting(session, key, None)
    _changed(key, before, after, as_json)


def _changed(key: str, before, after, as_json: bool) -> None:
    if before == after:
        summary = f"site {key} unchanged"
    else:
        summary = f"site {key}: {quoted(after).english()}" if after is not None else f"site {key} cleared"
    report_change("site.set" if after is not None else "site.unset", before != after, summary,
                  as_json, setting=key, before=before, after=after)


@site.command("show")
@delimited_flags
@json_option
@db_option
def show(as_json, db_url):
    """The site's settings (empty ones are not set: publish uses its default).

    \b
    Example:
      tourney site show --json
    """
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        settings = site_settings(session)
    if as_json:
        emit_json(settings.to_json())
    else:
        emit_table(["setting", "value", "what"],
                   [[key, getattr(settings, key) or "", what] for key, what in SETTINGS.items()])


def register(group: click.Group) -> None:
    group.add_command(publish)
    group.add_command(site)
