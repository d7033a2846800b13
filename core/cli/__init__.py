"""The headless commands (``fireteam script``, ``log``, ``replay``, ``bench``, ``scenarios``, ...):
a layer over the engine that nothing in the engine imports."""
