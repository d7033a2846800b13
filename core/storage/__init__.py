"""The save file and its tools: the format and reading it, writing and locking it,
the compact event store, the open cache (and a big save read ahead for it), salvage
and what-if forks."""
