"""Built-in rulesets; importing this package registers them."""

from core.rulesets import bassa_intensita  # noqa: F401
from core.rulesets import breaking_news  # noqa: F401
from core.rulesets import linea_di_tiro  # noqa: F401
