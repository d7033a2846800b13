"""Scenario and force files: reading them within limits, the common schema and its
checks, the forces a scenario fields (docs/scenarios.md). Each ruleset extends the
format in its own ``scenario_format.py``."""
