"""The steps of the commands' dice orders (``CommandSpec.dice``) that their rolls name,
said once for the spec and the roll."""

TO_HIT = "to hit: 1d6"
DAMAGE = "if hit: damage 1d6 on a figure; with a vehicle at either end, 1d6 + combat value each, the shooter first"
GRENADE_TO_HIT = "to hit the spot: 1d6"
GRENADE_DAMAGE = "if it lands: damage 1d6 per figure inside"
AIR_STRIKE = "the air strike: 1d6"
AIR_STRIKE_DAMAGE = "if hit: damage 1d6 per figure; 1d6 + combat value each per vehicle, the aircraft first"
BURST = "the burst: 1d6"
BURST_DAMAGE = "if hit: damage 1d6 per figure inside; 1d6 + combat value each per vehicle, the support first"
LEAVING = "leaving the melee: 1d6 + modifiers"
LAST_ROLL = "the other's last roll at him: 1d6 + modifiers"
#: Every step of a damage die (a figure's) or a combat value roll (a vehicle's), whichever command rolls it.
DAMAGE_STEPS = (DAMAGE, GRENADE_DAMAGE, AIR_STRIKE_DAMAGE, BURST_DAMAGE)
AA = "anti-aircraft fire: 1d6"
MELEE = "each fighter's melee: 1d6 + modifiers, the attacker first"
RUNNING = "running: fatigue, 1d6"
MORALE = "morale: 1d6"
NEXT_FIRST_PLAYER = "leaving deployment: first player, 1d6 per side, both again on a tie"
