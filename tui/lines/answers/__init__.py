"""What the line client's reading commands say: each pane of the Textual client, in whole sentences.

Everything comes from what the role may see, through the same doors the
Textual client's panes use: ``Game.view(role)`` (the phase pane, the roster),
``Game.log_lines(role)`` with its numbers (the log, and the dice pane through
``tui.viewpoint.Viewpoint``), ``Game.odds``; nothing here reads the game's
own state or its file positions.  Each answer is a list of lines, each line a
sentence that begins with its most important words (the outcome of a roll, a
figure's name and state, the turn and phase) and ends with a stop, with no
table art, no box drawing and no alignment by spaces: a screen reader reads it
as written, and a braille display's first cells say what matters.  Text that
came from outside (names, notes, commands) is made visible (``tui.visible``)
by the client as it writes the line.

One concern a module: ``words`` (a sentence's stop and capital), ``log`` (the log,
what is new, the secrets), ``standing`` (the phase pane, ``status``), ``figures``
(the roster, ``who``), ``rolls`` (the table's dice, a question, the dice pane, ``odds``),
``help`` (the client's words, one command in full).  What the rest reads is imported here.
"""

from tui.lines.answers.figures import roster, who
from tui.lines.answers.help import command_help, help_lines, own_word, table_dice_commands
from tui.lines.answers.log import LOG_LINES, brief, last_lines, news, secrets, worded
from tui.lines.answers.rolls import answering, dice, narrowed, odds, question, table_dice
from tui.lines.answers.standing import phase, status
from tui.lines.answers.words import sentence, stopped

__all__ = [
    "LOG_LINES",
    "answering",
    "brief",
    "command_help",
    "dice",
    "help_lines",
    "last_lines",
    "narrowed",
    "news",
    "odds",
    "own_word",
    "phase",
    "question",
    "roster",
    "secrets",
    "sentence",
    "status",
    "stopped",
    "table_dice",
    "table_dice_commands",
    "who",
    "worded",
]
