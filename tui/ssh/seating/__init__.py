"""A seat at a table, whatever door its player came in by (SSH or a browser).

``seat`` is every seat's life (the checks before sitting down, the app, the end);
``driver`` draws a Textual app on the seat's channel; ``plain`` hosts the line client
instead; ``chooser`` is the menu of tables; ``history`` keeps a plain seat's lines;
``stands`` and ``sharedscreen`` seat the spectators, one screen drawn for many.
"""
