"""The registry of rulesets: the built-in ones, imported the first time a game asks for one,
those a program or a test registers, and those installed packages declare (their entry
points), each checked whole before it is used (docs/architecture.md, "Found through one
registry")."""

from __future__ import annotations

import importlib
import logging
import re
from collections.abc import Collection, Iterator

from core.ruleset import Ruleset, missing_members

#: The built-in rulesets: id → where its class is (``module:Class``), imported the
#: first time a game asks for it.  Only the ruleset a game uses is imported (a ruleset
#: is dozens of modules and data tables; the client starts faster without the three it
#: does not show).
BUILTIN = {
    "bassa-intensita": "core.rulesets.bassa_intensita:BassaIntensita",
    "breaking-news": "core.rulesets.breaking_news:BreakingNews",
    "linea-di-tiro": "core.rulesets.linea_di_tiro:LineaDiTiro",
    "ludonet": "core.rulesets.ludonet:Ludonet",
}
#: The entry point group an installed package names its rulesets in, as pytest's and
#: Textual's plugins are found: in its pyproject.toml,
#: ``[project.entry-points."fireteam.rulesets"]`` then ``my-rules = "my_rules:MyRules"``
#: (the entry point's name is the ruleset's id).
ENTRY_POINTS = "fireteam.rulesets"
#: What a ruleset's id may be: a save records it, and a folder of the user's scenarios is named by it.
RULESET_ID = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?")
#: The longest report of a broken plugin (its error's words are its own: hostile).
MAX_REPORT = 300
#: Where a plugin that cannot be used is reported, one line each.
LOG = logging.getLogger("fireteam.rulesets")

_REGISTRY: dict[str, type[Ruleset]] = {}
#: The installed plugins' rulesets, by id: found once (:func:`_plugins`).
_PLUGINS: dict[str, type[Ruleset]] | None = None


class NotARuleset(ValueError):
    """What :func:`register` or an entry point gave cannot be registered (and why)."""


def _checked(found: object, ruleset_id: str | None = None) -> type[Ruleset]:
    """``found`` if it is a whole ruleset class whose id is a good one (and is
    ``ruleset_id``, where the id was named first); else :class:`NotARuleset`."""
    if not (isinstance(found, type) and issubclass(found, Ruleset)):
        raise NotARuleset(f"{found!r} is not a subclass of core.ruleset.Ruleset")
    missing = missing_members(found)
    if missing:
        raise NotARuleset(f"{found.__qualname__} does not give {', '.join(missing)}")
    rid = found.id
    if not isinstance(rid, str) or not RULESET_ID.fullmatch(rid):
        raise NotARuleset(f"{found.__qualname__}.id {rid!r} is not lowercase letters, digits and hyphens (1-40)")
    if ruleset_id is not None and rid != ruleset_id:
        raise NotARuleset(f"{found.__qualname__}.id is {rid!r}, not {ruleset_id!r}")
    return found


def register(ruleset: type[Ruleset]) -> None:
    """Make ``ruleset`` known by its id (a test's ruleset, a program embedding the
    engine).  A built-in's id or another ruleset's cannot be taken: NotARuleset."""
    _checked(ruleset)
    rid = ruleset.id
    if rid in BUILTIN or rid in _plugins_found():
        raise NotARuleset(f"{rid!r} is the id of a ruleset already installed")
    if _REGISTRY.setdefault(rid, ruleset) is not ruleset:
        raise NotARuleset(f"{rid!r} is already registered ({_REGISTRY[rid].__qualname__})")


def unregister(ruleset_id: str) -> None:
    """Forget a ruleset :func:`register` made known (the built-ins and plugins stay)."""
    _REGISTRY.pop(ruleset_id, None)


def get_ruleset(ruleset_id: str, variant: str = "") -> Ruleset:
    return ruleset_class(ruleset_id)(variant)


def ruleset_class(ruleset_id: str) -> type[Ruleset]:
    """The class of the ruleset ``ruleset_id``: registered, built in (imported now) or an
    installed plugin's; ValueError naming the known ones for any other id."""
    found = _REGISTRY.get(ruleset_id)
    if found is None and ruleset_id in BUILTIN:
        found = _REGISTRY[ruleset_id] = _checked(_load(BUILTIN[ruleset_id]), ruleset_id)
    if found is None:
        found = _plugins_found().get(ruleset_id)
    if found is None:
        known = ", ".join(available()) or "none"
        raise ValueError(f"unknown ruleset {ruleset_id!r} (known: {known})")
    return found


def available() -> list[str]:
    """Every ruleset's id: built in, registered, or installed (found when first asked)."""
    return sorted({*_REGISTRY, *BUILTIN, *_plugins_found()})


class RulesetIds(Collection[str]):
    """:func:`available`, looked into only when first used: an argument's ``choices``
    (give it a ``metavar``, which argparse shows instead of listing them) that spares a
    start the search of the installed packages and the import of every plugin until the
    argument is given."""

    def __contains__(self, ruleset_id: object) -> bool:
        return ruleset_id in available()

    def __iter__(self) -> Iterator[str]:
        return iter(available())

    def __len__(self) -> int:
        return len(available())


def _load(reference: str) -> object:
    """The object a ``module:attribute`` reference names (an entry point's value)."""
    module, _colon, attribute = reference.partition(":")
    found: object = importlib.import_module(module)
    for name in attribute.split(".") if attribute else ():
        found = getattr(found, name)
    return found


def _plugins_found() -> dict[str, type[Ruleset]]:
    """The rulesets installed packages name in :data:`ENTRY_POINTS`, each loaded and
    checked once.  One that cannot be used (its import fails, it is no whole ruleset,
    its id is taken or malformed) is reported in one line and left out: a broken
    plugin never stops a start, and none replaces a built-in."""
    global _PLUGINS
    if _PLUGINS is None:
        from importlib.metadata import entry_points

        found: dict[str, type[Ruleset]] = {}
        for ep in sorted(entry_points(group=ENTRY_POINTS), key=lambda ep: (ep.name, ep.value)):
            try:
                if ep.name in BUILTIN or ep.name in found or ep.name in _REGISTRY:
                    raise NotARuleset(f"the id {ep.name!r} is taken")
                found[ep.name] = _checked(ep.load(), ep.name)
            except Exception as e:  # noqa: BLE001  (a plugin's failure is its own: reported, skipped)
                _report(ep.name, ep.value, e)
        _PLUGINS = found
    return _PLUGINS


def _report(name: str, value: str, error: BaseException) -> None:
    said = f"ruleset plugin {name!r} ({value}) left out: {type(error).__name__}: {error}"
    LOG.warning("%s", " ".join(said.split())[:MAX_REPORT])
