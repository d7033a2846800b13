"""Versions that mean something (issue #74): one version, recorded by each session of a save,
and ``fireteam verify`` of a save an older version wrote says the rules changed since, with an
exit status of its own, where a forged one still fails as forged (docs/secrets.md)."""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import tomllib
from pathlib import Path

import msgspec
from recorded import SAVES
from test_core_verify_facts import rewrite

import core
from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.releases import RELEASES, key
from core.secrets.sessions import FIRST_VERSION
from core.secrets.verify import RULES_CHANGED
from tui.main import main as fireteam

ROOT = Path(__file__).resolve().parents[2]
#: saves/demo-game.ft as committed on 2026-11-23 (commit 0f3f50a4), written by Fireteam 0.1.0:
#: its commands name no version. CHANGELOG.md says which rules it meets changed since.
OLDER = Path(__file__).resolve().parent / "saves" / "demo-0.1.0.ft"
#: saves/demo-game.ft as 0.2.0 recorded it on 2026-11-27 (its first command names 0.2.0).
RECORDED_BY_0_2 = Path(__file__).resolve().parent / "saves" / "demo-0.2.0.ft"


def test_the_version_is_written_once_and_the_package_reads_it():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "core.__version__"}
    assert importlib.metadata.version("fireteam") == core.__version__ == "0.3.0"
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## {core.__version__} (" in changelog


def test_the_versions_released_are_the_changelogs_and_this_one_the_last():
    """``core.releases.RELEASES`` is CHANGELOG.md's list of versions, newest first there, oldest first here."""
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (\S+) \((\d{4}-\d{2}-\d{2})\)$", changelog, flags=re.M)
    assert [(r.version, r.date) for r in RELEASES] == headings[::-1]
    assert RELEASES[-1].version == core.__version__ and [key(r.version) for r in RELEASES] == sorted(
        key(r.version) for r in RELEASES
    )


def _issued(path: Path) -> list[ev.Issued]:
    game = Game.open(path, writable=False)
    try:
        return [e for e in game.history.store.slice(0, len(game.history.store)) if type(e) is ev.Issued]
    finally:
        game.close()


def test_each_session_records_the_version_that_wrote_it(tmp_path):
    save = tmp_path / "g.ft"
    game = Game.new(save, "breaking-news", seed=1)
    game.execute("scenario demo", role=REFEREE)
    game.execute("note the first evening", role=REFEREE)
    game.close()
    Game.open(save, writable=False).close()  # a read writes nothing
    game = Game.open(save)
    game.execute("note the second evening", role=REFEREE)
    game.close()
    assert [(e.text, e.version) for e in _issued(save)] == [
        ("scenario demo", core.__version__),
        ("note the first evening", ""),
        ("note the second evening", core.__version__),
    ]
    assert fireteam(["verify", str(save)]) == 0  # the version is the writer's, never a rule's difference


def test_an_older_versions_save_is_said_to_meet_changed_rules_not_forged(capsys):
    assert [e.version for e in _issued(OLDER)] == [""] * 91 and FIRST_VERSION == "0.1.0"
    assert fireteam(["verify", str(OLDER)]) == RULES_CHANGED == 3
    out = capsys.readouterr().out.splitlines()
    changed = [line for line in out if "recorded by 0.1.0; rules changed since" in line]
    # 33 under 0.2.0's rules; 8 more since (CHANGELOG.md, Unreleased): a reaction records the
    # action's number within the activation beside the game's (§8.2, "has reacted to action 1")
    assert len(changed) == 41 and not any(": mismatch" in line for line in out)
    # §5.0: each activation's actions counted from 1 beside the game's (CHANGELOG.md, 7f8ee2fd)
    assert changed[0] == (
        "command #17 at step 131 (move ahmed 20 run): recorded by 0.1.0; rules changed since "
        '(§5.0, §6.0–§6.4, §7.0): fact 3: recorded {"t":"var","value":"1:1:ahmed"}, '
        're-derived {"t":"var","value":"1:1:ahmed:1"}'
    )
    assert out[-1].endswith(
        "41 recorded by an older Fireteam give other facts under this version's rules "
        "(rules changed since: CHANGELOG.md); none forged"
    )
    assert "forged or damaged" not in "\n".join(out)


def _forged(tmp_path: Path, edit) -> Path:
    save = tmp_path / "forged.ft"
    shutil.copyfile(OLDER, save)
    rewrite(save, edit)
    return save


def test_an_older_save_with_a_die_edited_is_still_forged(tmp_path, capsys):
    """Command #5 (objective-roll) rolled a seeded 3 on a d6; made a 6: the seed gives 3."""

    def edit(events):
        at = next(i for i, e in enumerate(events) if isinstance(e, ev.Rolled) and not e.roll.manual)
        was = events[at]
        assert was.roll.faces == (3,)
        events[at] = msgspec.structs.replace(was, roll=msgspec.structs.replace(was.roll, faces=(6,)))
        return events

    assert fireteam(["verify", str(_forged(tmp_path, edit))]) == 1
    out = capsys.readouterr().out
    (line,) = [line for line in out.splitlines() if line.startswith("command #5 ")]
    assert "(objective-roll): mismatch: " in line and "recorded by" not in line
    assert "1 differ from what the rules give: forged or damaged" in out


def test_an_older_save_with_a_commitment_edited_is_still_forged(tmp_path, capsys):
    """The militia's marker 4 was revealed a fake; made to read as the IED: its commitment says otherwise."""

    def edit(events):
        at = next(i for i, e in enumerate(events) if type(e) is ev.Revealed and e.key == "marker.irregulars.4")
        events[at] = msgspec.structs.replace(events[at], value="ied")
        return events

    assert fireteam(["verify", str(_forged(tmp_path, edit))]) == 1
    out = capsys.readouterr().out
    assert "marker.irregulars.4" in out and "does not match its commitment" in out


def test_the_recorded_saves_are_this_versions():
    for save in sorted(SAVES.glob("*.ft")):
        assert _issued(save)[0].version == core.__version__, f"{save.name}: record it again by its script"


def test_the_man_page_and_the_docs_name_the_exit_status_of_changed_rules():
    page = (ROOT / "docs" / "fireteam.1").read_text(encoding="utf-8")
    assert (
        ".SH EXIT STATUS\nfireteam verify:\n" in page
        and f"\\fB{RULES_CHANGED}\\fR\nrecorded by an older Fireteam" in page
    )
    secrets = (ROOT / "docs" / "secrets.md").read_text(encoding="utf-8")
    assert f"{RULES_CHANGED} when every commitment and\ndie checks out" in secrets


def test_a_save_0_2_0_recorded_verifies_as_recorded_by_it(capsys):
    """Saves written by 0.2.x still verify as such: the demo as 0.2.0 recorded it re-derives whole
    but for the reactions, which 0.3.0 numbers within the activation (§8.2, CHANGELOG.md): rules
    changed since, none forged."""
    assert _issued(RECORDED_BY_0_2)[0].version == "0.2.0" != core.__version__
    assert fireteam(["verify", str(RECORDED_BY_0_2)]) == RULES_CHANGED
    out = capsys.readouterr().out
    assert out.count("recorded by 0.2.0; rules changed since (§8.2, §8.3)") == 8
    assert out.splitlines()[-1].endswith(
        "8 recorded by an older Fireteam give other facts under this version's rules "
        "(rules changed since: CHANGELOG.md); none forged"
    )
