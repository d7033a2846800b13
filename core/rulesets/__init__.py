"""Built-in rulesets, one package each; ``core.registry.BUILTIN`` names them, and
``core.registry.get_ruleset`` imports only the one a game asks for (importing
a ruleset's package registers it)."""
