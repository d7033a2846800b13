"""The save file and its tools: the format and reading it, writing and locking it,
the compact event store, the open cache, salvage and what-if forks."""
