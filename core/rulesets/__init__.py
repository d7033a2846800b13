"""Built-in rulesets, one package each; ``core.ruleset.BUILTIN`` names them, and
``core.ruleset.get_ruleset`` imports only the one a game asks for (importing
a ruleset's package registers it)."""
