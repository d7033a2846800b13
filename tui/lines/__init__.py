"""The line client: the game as lines of text, for screen readers, braille displays, slow links and scripts.

A client of the core as the Textual client is, that draws no screen: a
prompt, the answer to each line in whole sentences, and what the other seats
do printed as it happens, the text only ever appended (no cursor movement, no
alternate screen, no spinner).  It imports no Textual (an import contract in
pyproject.toml holds it to that), so a screen-reader user pays none of its
start.

* ``client``: :class:`LineClient`, fed one line at a time and writing through
  a callback, whatever carries the lines (a local terminal, a pipe, an SSH
  seat); ``held``, its share of the dice the table waits for at another seat (a
  roll held for a seat, whose dice another seat types at its own prompt);
* ``words``: the client's reading words (``status``, ``log``, ``why``,
  ``verbose`` ...), typed in English or the reader's language, and what each
  answers at a seat (:class:`~tui.lines.words.ReadingWords`, a part the client
  holds);
* ``answers``: what each reading command says (``status``, ``roster``,
  ``phase``, ``log``, ``dice``, ``odds``, ``help``), from the role's own view
  and log;
* ``ink``: the few colours it uses, none under ``NO_COLOR`` or ``TERM=dumb``;
* ``spoken``: a sign that carries meaning (a playing card) in words;
* ``terminal``: ``fireteam --plain``, the local front (line editing and
  history through the standard library's ``readline``; plain lines from and to
  a pipe);
* ``editor``: the line editor of a plain SSH seat, on the raw keys of a
  terminal at the far end of the connection: what to echo (each key alone, a
  row edited with backspaces and spaces), and the lines entered.
"""
