"""Breaking News combat commands: movement, hiding and sighting, fire, saves,
suppression and melee (§6–§11).

The commands live in ``move``, ``fire`` (its shot in ``shot``), ``reactions``, ``templates``,
``melee`` and ``support``;
the rules they apply are pure functions in ``movement``, ``spotting``, ``fire``,
``saves``, ``suppression`` and ``support``, over the tables of ``tables.combat``.
Reactions are named ``react-…`` so the reacting player may give them during the
active player's activation (turn.check_turn).
"""

from __future__ import annotations

from core.language.i18n import M, Msg
from core.log import events as ev
from core.ruleset import CommandSpec, Context
from core.rulesets.breaking_news import dice_order, hits
from core.rulesets.breaking_news.commands import fire, melee, move, reactions, support, templates
from core.rulesets.breaking_news.ledger import set_unit_var, set_var, unit_var, var
from core.rulesets.breaking_news.rules.support import smoke_drift
from core.rulesets.breaking_news.tables.combat import support as support_table

COMMANDS: tuple[CommandSpec, ...] = (
    *move.COMMANDS,
    *fire.COMMANDS,
    *reactions.COMMANDS,
    *templates.COMMANDS,
    *melee.COMMANDS,
    *support.COMMANDS,
)


def start_of_turn(ctx: Context) -> None:
    """Start-of-turn upkeep before initiative (§5.0): support called last turn lands
    (§8.4), smoke drifts or clears (§8.9)."""
    support.land_support(ctx)
    _smoke(ctx)


def _smoke(ctx: Context) -> None:
    s = ctx.state
    for _ in range(int(var(s, f"smoke.{s.turn - 1}", 0))):
        faces = ctx.roll(
            M("smoke drift"),
            support_table().smoke.drift_dice,
            step=dice_order.NEXT_DRIFT,
            total=True,
            rule="§8.9",
            outcome=lambda f: _drift_words(f),
            check=ev.Read(),
        )
        ctx.emit(ev.Noted(text=M("last turn's smoke drifts {drift} (§8.9)", drift=_drift_words(faces))))
    if int(var(s, f"smoke.{s.turn - 2}", 0)):
        ctx.emit(ev.Noted(text=M("the smoke of turn {turn} clears: remove it (§8.9)", turn=s.turn - 2)))


def _drift_words(faces: tuple[int, ...]) -> Msg:
    cm, same = smoke_drift(faces)
    return M("{cm} cm the way it first deviated", cm=cm) if same else M("{cm} cm the opposite way", cm=cm)


def end_of_turn(ctx: Context) -> None:
    """End-of-turn upkeep (§5.0): the turn's badges and unused sighting bonuses go,
    covering fire ends (COV-7), a wounded man whose time is up and who has no medic
    dies (§9.3, AMB-47)."""
    s = ctx.state
    for u in s.units.values():
        stale = tuple(b for b in hits.TURN_BADGES if u.has(b))
        if stale:
            ctx.emit(ev.StatusChanged(unit=u.id, remove=stale))
    for key, secret in list(s.secrets.items()):
        if key.startswith("spot-bonus.") and secret.value != "0":
            ctx.emit(ev.SecretSet(key=key, owner=secret.owner, value="0", vis=(secret.owner,)))
    if var(s, "covering"):
        set_var(ctx, "covering", "")
    for u in s.units.values():
        due = int(unit_var(s, u.id, "wound", 0))
        what, by = hits.parse_cause(u.out)
        if due and due <= s.turn and what == hits.WOUNDED:
            ctx.emit(ev.UnitOut(unit=u.id, cause=hits.cause(hits.DIED, by)))
            set_unit_var(ctx, ctx.unit(u.id), "wound", 0)
