"""Linea di Tiro spotting (digest C.4, book "Visibilità") as pure functions.

The engine has no positions: the referee measures the distance between an
observer with a line of sight and the target, types it, and these functions
decide whether the target is spotted.
"""

from __future__ import annotations

from core.rulesets.linea_di_tiro.tables import spotting


def distance(kind: str, state: str, fired: int, observer_vehicle: bool, observer_recon: bool) -> float | None:
    """LT-R032..R034: the spotting distance in cm of a ``kind`` piece (``vehicle`` or
    ``infantry``) in ``state`` that has fired ``fired`` times since its last bound,
    seen by the observer; None when unlimited (any line of sight spots it)."""
    table = spotting()
    row = table.row(kind, state)
    if row is None:
        raise ValueError(f"no spotting distance for {kind} {state}; known: {', '.join(table.states(kind))}")
    if row.unlimited:
        return None
    cm = float(row.cm * table.fire_factor ** min(max(fired, 0), table.max_doublings))
    if observer_vehicle and not observer_recon:
        cm /= table.vehicle_observer_divisor
    return cm


def spotted(measured_cm: int, limit: float | None) -> bool:
    """LT-R032: spotted within the distance, the distance itself included (ruling LT-SPOT)."""
    return limit is None or measured_cm <= limit
