"""Records declared once: an int64 record is a tuple of (name, size) fields, and its offsets
are derived here (``analyzer.runs.units.COUNT_FIELDS``, ``analyzer.game.auction.AUCTION_FIELDS``)."""


def offsets(fields) -> tuple[dict[str, int], int]:
    """``{name: offset}`` of each field laid end to end, and the record's size."""
    out, at = {}, 0
    for name, size in fields:
        if name in out:
            raise ValueError(f"field {name!r} is declared twice")
        out[name] = at
        at += size
    return out, at
