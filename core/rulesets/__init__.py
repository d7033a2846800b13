"""Built-in rulesets; importing this package registers them."""

from core.rulesets import breaking_news  # noqa: F401
