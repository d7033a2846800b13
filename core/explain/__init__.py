"""The rules' explanations: which rule says what, and answers to a player's questions.

This room owns a ruleset's rules map (``rulesmap``), how a rules question's words are read
(``rulewords``) and searched (``rulesearch``), the answer said in sentences (``rulesask``,
``rule?``), the rule ids a refusal, a roll or a log step names (``why``) and a command asked
before it is given (``ahead``, ``? COMMAND``).  Nothing here changes a game.
"""

#: The reading word ``rule?`` in English (the catalogues give the reader's: ``regola?``), here and not
#: in ``rulesask``: a client names it in its first frame (its command line's guide) and imports the
#: answering when asked.
WORD = "rule?"
