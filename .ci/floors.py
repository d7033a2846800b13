"""The lowest versions pyproject.toml's run-time dependencies allow, as pip constraints (.ci/run)."""

import re
import sys
import tomllib

with open(sys.argv[1] if len(sys.argv) > 1 else "pyproject.toml", "rb") as f:
    dependencies = tomllib.load(f)["project"]["dependencies"]
for dependency in dependencies:
    # A floor (>=), or an exact pin (==, a library whose output the project holds to: its own floor).
    floor = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[^]]*\])?\s*(?:>=|==)\s*([^,;\s]+).*", dependency)
    if floor is None:
        sys.exit(f"{dependency}: no floor (>=) or pin (==) to test")
    print(f"{floor[1]}=={floor[2]}")
