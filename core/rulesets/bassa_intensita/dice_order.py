"""The steps several commands' dice orders share (``CommandSpec.dice``), said once."""

ISOLATION = "if isolated: his isolation test, 1d10"
DAMAGE = (
    "each hit at once: against armour, penetration 1d10; then damage 1d10 "
    "(a man it wounds: turns he lives undressed, 1d6; a vehicle: which weapon it loses, 1dN, "
    "a face for each weapon it has left)"
)
# Direct fire reads its dice shot by shot, as a player rolls them at the table: each shot's
# to-hit die, then at once what that shot does, before the next shot's (A.9.4, A.12;
# ruling BI-FIRE-DICE).  One step for the whole of each shot, so no order reads as every
# to-hit die first.
SHOT_TO_HIT = "each shot in turn: to hit, 1d10 under the hit chance"
HIT_AT_ONCE = (
    "a hit at once, before the next shot: against armour, penetration 1d10, then damage 1d10 "
    "(a man it wounds: turns he lives undressed, 1d6; a vehicle: which weapon it loses, 1dN, "
    "a face for each weapon it has left)"
)
#: ``fire``'s shots: a hit's damage, an HE round's burst where it hits, its deviation where it misses.
SHOTS = (
    f"{SHOT_TO_HIT}; {HIT_AT_ONCE}; an HE round that hits: whether it catches each man, 1d10, and his "
    "damage 1d10; an HE round that misses: where it lands, 1d10"
)
#: ``screened``'s shots: automatic fire at a hidden man, no HE (BI-R053).
SCREENED_SHOTS = f"{SHOT_TO_HIT}; {HIT_AT_ONCE}"
SNIPER_RISK = "a hidden sniper: risking a shot, 1d6"
HELICOPTER_FLIGHT = "a helicopter: its flight, 2d6 total"
ACTION = "the action: 1d10 under its chance, unless very easy"
WOUNDED_AIM = "a wounded man: his aim, 1d10 under his chance"
BURST_CATCH = "each man: whether the HE catches him, 1d10"
MORALE = "morale: 1d10 under the chance"
MORALE_EFFECT = "if failed: its effect, 1d6"
MORALE_PILOT = "a helicopter's pilot: breaking off, 1d6"
PRECISION = "precision: 1d10 under the observer's Quality"
LANDING = "where it lands: 1d10"
LONG_OR_SHORT = "how far long or short: 2d6 total, if the table says"
LEFT_OR_RIGHT = "how far left or right: 2d6 total, if the table says"
AIRCRAFT_RETURN = "a damaged aircraft: its return, 1d6"
AIR_STRIKE = "an air strike: precision 1d10, then where it lands 1d10"
STRAFING_PASS = "a strafing pass: precision 1d10, then where it lands 1d10"
SMOKE_SHELLS = "smoke shells: how long they last, 1d6"
STRAFING = "strafing: 1d10 under the pilot's chance"
AA_FIRE = "anti-aircraft fire: 1d10 under the hit chance"
AA_HIT = "if hit: a helicopter's hit 2d6 total (and a man aboard hit 1d6, if the table says), an aircraft's 1d6"
MINE_GOES_OFF = "the mine: whether it goes off under him, 1d6"
MINE_AP = "an anti-personnel mine: whether it catches him, 1d10, then damage 1d10"
MINE_AT = "an anti-tank mine: penetration 1d10, then damage 1d10"
GAS = "how long the gas lasts: 1d6"
SMOKE = "how long the smoke lasts: 1d6"

# ``next`` (``BassaIntensita.next_dice``): the checks still due first, then phase by phase.
NEXT_MORALE = "each morale check still due: 1d10 under the chance; if failed, its effect 1d6"
NEXT_TAKING_OVER = "a squad whose leader fell: its best man taking over, 1d10 under his chance"
NEXT_INITIATIVE = "initiative: 1d6 per side, both again on a tie"
NEXT_ROTOR = "as the movement begins: a helicopter with a damaged rotor, 1d6"
DRESSING = "dressing: 1d10 under its chance"
SEARCH = "the search: 1d10 under its chance"
OBSERVATION = "observation: 1d10 under its chance, unless very easy"
CONTACT = "contact: 1d10 under its chance, unless very easy"
