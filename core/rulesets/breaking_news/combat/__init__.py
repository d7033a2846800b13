"""Breaking News in the fight: movement, hiding and sighting, fire, hits and saves,
suppression, support and melee (§6–§11), over the tables of ``combat.tables``."""
