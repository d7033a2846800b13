"""Built-in rulesets; importing this package registers them."""

from core.rulesets import (
    bassa_intensita,  # noqa: F401
    breaking_news,  # noqa: F401
    linea_di_tiro,  # noqa: F401
    ludonet,  # noqa: F401
)
