"""Which Fireteam wrote each command of a save, and in which language it was given: what of
a command's own record ``fireteam verify`` believes before it judges the command by it.

A session is one open of a save for writing. Its first command names the version that wrote it
(``Issued.version``), and every command after it in the file, to the next that names one, was
written by that version; a save whose commands name none was written by the first release.
The version decides how a command is judged: one this Fireteam wrote must give the facts its
rules give, one an older version wrote may meet rules changed since (``core.secrets.rederive``).
A claim is the writer's word, and a forger's: anyone can add ``"version"`` to any command. So a
claim is believed only where a Fireteam could have written it (docs/secrets.md, "Which
Fireteam wrote it"):

* a version released (``core.releases.RELEASES``) from the first that recorded its version on,
  or one newer than this Fireteam, which it cannot judge (``newer``: a verdict of its own);
* never older than the session before it: from 0.3.0 a Fireteam refuses to write a save a newer
  one wrote (``Game`` opening it), so an older version after a newer one is a claim made since,
  one that would have an older version's rules judge a command this version wrote;
* a language only where its version recorded one (``core.releases.LANGUAGE_RECORDED_FROM``), and
  one this Fireteam reads.

A claim not believed is forged, and its command is judged as its session's. A what-if's commands
copied from its parent (its first ``parent.step`` events) stand in the order they took effect in
the parent, which a redo can put out of the order they were written in: there an older version
may follow a newer one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import core
from core.language.i18n import _
from core.language.reader import LANGUAGES, SOURCE
from core.log import events as ev
from core.log.history import History
from core.releases import LANGUAGE_RECORDED_FROM, RELEASES, VERSION_RECORDED_FROM, before, newer, released

#: The version that wrote a command of a save that names none: the only one before versions were recorded.
FIRST_VERSION = RELEASES[0].version


@dataclass
class Claim:
    """A command whose record claims what is not believed (``why``), or a version newer than this one."""

    head: ev.Issued
    why: str


@dataclass
class Sessions:
    """A save's commands taken in file order (``written_by``): the version of each, and the claims
    not believed (``forged``) or past this Fireteam (``ahead``)."""

    version: str = FIRST_VERSION
    forged: list[Claim] = field(default_factory=list)
    ahead: list[Claim] = field(default_factory=list)

    def written_by(self, head: ev.Issued, *, copied: bool = False) -> str:
        """The version that wrote ``head``, its session's (``copied``: a what-if's command copied
        from its parent); a claim not believed is noted and leaves the session as it was."""
        claimed = head.version
        if claimed:
            why = self._not_believed(claimed, copied)
            if why:
                self.forged.append(Claim(head, why))
            else:
                self.version = claimed
                if newer(claimed):
                    said = _(
                        "written by Fireteam {version}, newer than this one ({mine}): verify it with {version} or later"
                    )
                    self.ahead.append(Claim(head, said.format(version=claimed, mine=core.__version__)))
        if head.lang and not newer(self.version):
            why = self._language_not_believed(head.lang)
            if why:
                self.forged.append(Claim(head, why))
        return self.version

    def _not_believed(self, claimed: str, copied: bool) -> str:
        if newer(claimed):
            return ""
        if not released(claimed):
            return _("it claims Fireteam {version}, which was never released (CHANGELOG.md)").format(version=claimed)
        if before(claimed, VERSION_RECORDED_FROM):
            said = _("it claims Fireteam {version}, which recorded no version (the first that did is {first})")
            return said.format(version=claimed, first=VERSION_RECORDED_FROM)
        if before(claimed, self.version) and not copied:
            said = _("it claims Fireteam {version} after a session of {was}: no Fireteam writes after a newer one")
            return said.format(version=claimed, was=self.version)
        return ""

    def _language_not_believed(self, given_in: str) -> str:
        if before(self.version, LANGUAGE_RECORDED_FROM):
            said = _("it names the language it was given in ({lang}), which Fireteam {version} did not record")
            return said.format(lang=given_in, version=self.version)
        if given_in not in LANGUAGES or given_in == SOURCE:
            return _("it names a language this Fireteam does not read ({lang})").format(lang=given_in)
        return ""

    def languages(self, head: ev.Issued) -> tuple[str, ...]:
        """The languages to read ``head``'s line in (after ``written_by``): the one it names; English
        where its session recorded languages; else each this Fireteam reads, English first, since
        an older Fireteam wrote none down (ruling CORE-GIVEN-IN): the first that gives its facts."""
        if head.lang:
            return (head.lang,) if head.lang in LANGUAGES else (SOURCE,)
        if before(self.version, LANGUAGE_RECORDED_FROM):
            return LANGUAGES
        return (SOURCE,)


def versions(history: History) -> list[str]:
    """The version that wrote each command of a save, by its number (``[0]`` unused): what a what-if
    copies with its parent's commands (``core.storage.fork``), whose session openers it may leave out."""
    sessions = Sessions()
    return ["", *(sessions.written_by(history.issued(cmd)) for cmd in range(1, history.next_cmd))]
