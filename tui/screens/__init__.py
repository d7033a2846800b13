"""The client's screens: the game screen and the dialogs, forms and pickers pushed over it."""
