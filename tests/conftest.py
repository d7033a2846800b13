"""What every test runs under."""

from core import dice

# A roll that names no step of its command's dice order fails the test that plays it
# (core.dice.UnplacedRoll): every command the tests play with exact faces proves
# that its rolls and its declared order agree.
dice.CHECK_STEPS = True

# The fifth ruleset is registered, and the rulesets the guard tests walk are taken from
# the registry, before any test module is collected (tests/registry_walk.py).
import registry_walk  # noqa: E402, F401
