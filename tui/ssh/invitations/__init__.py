"""Invitations: a link, or an SSH user name, that seats a player with no key registered.

``store`` keeps them (the table process alone writes it); ``redeem`` uses a token; ``cli`` is ``fireteam invite``.
"""
