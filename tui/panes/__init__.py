"""The four panes of the game screen: roster, turn phase, action log, dice."""
