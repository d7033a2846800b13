"""Breaking News around the fight: army lists, objectives and deployment, activation, morale,
media, civilians, captures, victory and defeat (§4, §12–§14 and the EXTRAS)."""
