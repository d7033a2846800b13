"""The steps of the commands' dice orders (``CommandSpec.dice``, ``BreakingNews.next_dice``),
said once for the order and for the roll that names its step (``Context.roll(step=...)``).

Outside ``commands``: the ruleset's ``next_dice`` reads it, and drawing a log must not
import the commands (tests/core/test_command_shapes.py)."""

SUPPRESSION = "if suppressed: his suppression test, 1d6"
TO_HIT = "to hit: the weapon's dice, per target"
SAVES = "each hit's save: 1d6 per hit (a vehicle's own save first, then each man aboard)"
WOUND = "with the wounded rule, each failed save: the wound, 1d6"
COVERING_TEST = (
    "in an area under covering fire: the covering-fire test, 2d6 total (3d6 in a bunker), and if hit its save 1d6"
)
BLAST_SAVES = "each figure under it: save 1d6 (a vehicle's own save first, then each man aboard)"
MISSED_AREA_SHOT = "a missed area shot, with deviation on: its direction, 1d6"
PERMISSION = "with permission: the permission, 1d6"
HIDDEN_MOVE = "a hidden figure: his hidden move, 1d6"
VEHICLE_MOVE = "a vehicle: its move, 2d6 total"
CARRYING = "carrying: 1d6"
SMOKE_PLACEMENT = "placement: 1d6"
MELEE_ATTACKERS = "the attackers' melee: 1d6 + modifiers"
MELEE_DEFENDER = "the defender's: 1d6 + modifiers"
STORM_ATTACKERS = "the attackers' dice: their melee dice"
STORM_DEFENDERS = "the defenders' dice: their melee dice"
MORTAR_FIRE = "mortar fire: 1d6"
MORTAR_MISS = "a miss, with deviation on: its direction, 1d6"
OBJECTIVES_MAIN = "each side drawing at random: main objective 1d5"
OBJECTIVES_SECONDARY = "then its secondary objectives, 1d6"

# ``next`` (``BreakingNews.next_dice``), phase by phase.
NEXT_SETUP = "leaving deployment: a set-up roll still due (the secret objective die, the deployment roll-off)"
NEXT_DRIFT = "at the start of a turn: smoke drift 2d6 total; support fire landing: its drift, 4d6 total"
NEXT_INITIATIVE = "initiative: 2d6 + modifiers per side, both again on a tie"
NEXT_END = "at the end of a turn: each morale test still due; a waiting helicopter, 1d6"
NEXT_NEGOTIATION = "at the game's end: negotiation, 1d6 per side negotiating"

# The commands that make by hand a roll ``next`` makes when it is due.
OBJECTIVE_ROLL = "the secret objective die: 1d6"
ROLLOFF = "deployment: 1d6 + leadership per side, both again on a tie"
MORALE = "each side due: morale, the test's dice (1d6 each)"
NEGOTIATION = "each side negotiating: negotiation 1d6, at or under its level"
CIVILIANS = "control of the civilians: 1d6"
JOURNALIST = "the journalist's move: 2d6 total"
INTELLIGENCE = "intelligence: 1d6, at or under the level"
SIGHTING = "sighting: 1d6"
CALL = "the call: 1d6"
IED = "the IED: 1d6"
RALLY = "suppression test: 1d6"
