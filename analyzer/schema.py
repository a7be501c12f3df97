"""Schemas of the files the tool reads back (policy files, deal logs), checked with pydantic.

Whatever is read again is validated field by field before anything uses it, and a bad file
is refused with one line naming the file, the field and what it must be
(``policy file p.json: params.0.threshold_r1: must be a finite number in [0, 200], not nan``).
The models of each format live beside its reader (``players.policy_files``,
``rules.deal_schema``); this module holds what they share: value types whose messages say
the allowed range, and ``check``, which turns pydantic's first error into that line.

Numbers are strict: ``true`` is not 1 and ``"42"`` is not 42, and NaN or infinity (which
Python's json module reads from ``NaN`` / ``Infinity``) is never a finite number.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from analyzer.errors import BeloteError

_MAX_SHOWN = 40  # characters of a refused value quoted in a message


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN - 3] + "..."


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def finite(lo: float, hi: float):
    """A JSON number (int or float) in ``[lo, hi]``: not a bool, a string, NaN or infinity."""
    def check(value):
        if not _is_number(value) or not math.isfinite(value) or not lo <= value <= hi:
            raise ValueError(f"must be a finite number in [{lo:g}, {hi:g}], not {_shown(value)}")
        return float(value)

    return Annotated[float, BeforeValidator(check)]


def whole(lo: int, hi: int | None = None):
    """A JSON whole number in ``[lo, hi]`` (``hi`` None: no upper bound); ``3.0`` and ``true`` are not."""
    def check(value):
        if not isinstance(value, int) or isinstance(value, bool) or value < lo or (hi is not None and value > hi):
            what = (f"{lo}" if hi == lo else f"a whole number in [{lo}, {hi}]" if hi is not None
                    else f"a whole number >= {lo}")
            raise ValueError(f"must be {what}, not {_shown(value)}")
        return value

    return Annotated[int, BeforeValidator(check)]


def choice(*values: str):
    """One of ``values`` (strings)."""
    def check(value):
        if not isinstance(value, str) or value not in values:
            allowed = repr(values[0]) if len(values) == 1 else (
                " or ".join(map(repr, values)) if len(values) == 2 else "one of " + ", ".join(map(repr, values)))
            raise ValueError(f"must be {allowed}, not {_shown(value)}")
        return value

    return Annotated[str, BeforeValidator(check)]


class Strict(BaseModel):
    """A record whose every field is declared: a misspelt or unknown key is refused."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Open(BaseModel):
    """A record that may carry fields besides the declared ones (kept, not checked)."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)


_PLAIN = {  # pydantic's error types, as the one line says them
    "missing": "is missing",
    "extra_forbidden": "is not a field of this record (misspelt?)",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "string_type": "must be a string",
    "bool_type": "must be true or false",
    "int_type": "must be a whole number",
    "float_type": "must be a number",
    "none_required": "must be null",
}


def field_path(loc) -> str:
    """``("params", "0", "w_J")`` -> ``params.0.w_J``; list indices in brackets: ``tricks[3].plays[1][0]``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part != "[key]" and not part.startswith(("function-", "nullable[", "union[", "list[", "dict[", "tagged-union[")) \
                and part not in ("str", "int", "float", "bool"):
            out += f".{part}" if out else part
    return out


def describe(e: ValidationError) -> str:
    """``FIELD: what it must be`` for the first error pydantic found (the one a user fixes first)."""
    err = e.errors(include_url=False)[0]
    kind = err["type"]
    if kind == "value_error":
        what = str(err["ctx"]["error"]) if "ctx" in err else err["msg"]
    elif kind in _PLAIN:
        what = _PLAIN[kind]
        if kind not in ("missing", "extra_forbidden"):
            what += f", not {_shown(err['input'])}"
    else:
        what = err["msg"][:1].lower() + err["msg"][1:] + f", not {_shown(err['input'])}"
    where = field_path(err["loc"])  # empty for a check across fields, whose message names them
    return f"{where}: {what}" if where else what


def check(model: type[BaseModel], data, where: str, fix: str = "", context: dict | None = None):
    """``data`` validated as ``model`` (with ``context`` for validators that need it); a
    ``BeloteError`` ``WHERE: FIELD: what it must be: FIX`` at the first bad field."""
    try:
        return model.model_validate(data, context=context)
    except ValidationError as e:
        raise BeloteError(f"{where}: {describe(e)}" + (f": {fix}" if fix else "")) from None
