"""Hierarchy builders: a hierarchy made from the distinct values of a column.

A spec declares ``hierarchy: {builder: <name>, ...parameters}``. Each builder is a pydantic model
of its parameters (unknown keys are refused) registered in :data:`BUILDERS`; its ``paths`` method
turns the column's values, as the engine casts them to VARCHAR, into leaf-to-root label paths. Every
hierarchy ends in the root ``*``. Leaves keep the values' exact text, so they match the column.

Builders that group ranges of values (``quantile``, ``ordered``) label a group of one value with the
value itself, so it is the leaf rather than a node above it.
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
from abc import abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from decimal import ROUND_FLOOR, Decimal, InvalidOperation
from functools import partial
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from anonsql.errors import HierarchyError
from anonsql.hierarchies.io import hierarchy_key, new_hierarchy
from anonsql.hierarchies.model import MAX_LEVELS, Hierarchy
from anonsql.registry import Registry

ROOT = "*"

Paths = list[list[str]]
#: A run of consecutive leaves, by first and last index.
Run = tuple[int, int]
T = TypeVar("T", Decimal, date)

PositiveDecimal = Annotated[Decimal, Field(gt=0, allow_inf_nan=False)]
FanOut = Annotated[int, Field(ge=2)]

#: ``YYYY-MM-DD``, optionally followed by a time and a UTC offset, as engines cast dates to text.
_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[ T]\d[\d:.]*(?:[+-]\d[\d:]*|Z)?)?\Z")
_PLACEHOLDER = re.compile(r"\{(first|last)\}")


class Invalid(ValueError):
    """A parameter rule a builder's validator enforces, with the fix to report."""

    def __init__(self, problem: str, fix: str) -> None:
        super().__init__(problem)
        self.fix = fix


class HierarchyBuilder(BaseModel):
    """Base class of builders: the model of a builder's parameters, and the building itself.

    Subclasses declare ``name`` (the spec's ``builder:`` value) and implement :meth:`paths`.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: ClassVar[str]

    @abstractmethod
    def paths(self, values: Sequence[str], key: str) -> Paths:
        """Leaf-to-root label paths over ``values``, root last; data errors are keyed ``key``."""


BUILDERS: Registry[type[HierarchyBuilder]] = Registry("hierarchy builder")
B = TypeVar("B", bound=type[HierarchyBuilder])


def _register(cls: B) -> B:
    BUILDERS.register(cls.name, cls)
    return cls


def build_hierarchy(spec: Mapping[str, Any], values: Sequence[str], *, name: str) -> Hierarchy:
    """Build the hierarchy ``spec`` (``{builder: <name>, ...parameters}``) over ``values``.

    ``values`` are the distinct values of column ``name`` as text; errors are keyed
    ``columns.<name>.hierarchy[.<parameter>]``.
    """
    key = hierarchy_key(name)
    builder = _builder_class(spec, key)
    params = {k: v for k, v in spec.items() if k != "builder"}
    try:
        instance = builder.model_validate(params)
    except ValidationError as err:
        raise _params_error(err, builder, key) from None
    if not values:
        raise HierarchyError(
            key,
            "the column has no values to build a hierarchy from",
            "build over a column with non-NULL values, or give a hierarchy file",
        )
    return new_hierarchy(
        instance.paths(values, key), name=name, origin=f"the {builder.name} builder"
    )


def _builder_class(spec: Mapping[str, Any], key: str) -> type[HierarchyBuilder]:
    name = spec.get("builder")
    known = ", ".join(BUILDERS)
    if not isinstance(name, str):
        raise HierarchyError(f"{key}.builder", "no builder name given", f"name one of: {known}")
    if name not in BUILDERS:
        raise HierarchyError(
            f"{key}.builder", BUILDERS.unknown_message(name), f"use one of: {known}"
        )
    return BUILDERS.get(name)


def _params_error(
    err: ValidationError, builder: type[HierarchyBuilder], key: str
) -> HierarchyError:
    first = err.errors()[0]
    loc = first["loc"]
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)
    takes = f"the {builder.name} builder takes: {', '.join(builder.model_fields)}"
    cause = first.get("ctx", {}).get("error")
    if isinstance(cause, Invalid):
        return HierarchyError(key + where, str(cause), cause.fix)
    if first["type"] == "extra_forbidden":
        close = difflib.get_close_matches(str(loc[0]), list(builder.model_fields), n=1)
        hint = f"did you mean {close[0]!r}; " if close else ""
        return HierarchyError(key + where, "unknown parameter", f"{hint}{takes}")
    if first["type"] == "missing":
        return HierarchyError(key + where, "required parameter missing", f"add it; {takes}")
    return HierarchyError(key + where, f"{first['msg']} (got {first['input']!r})", takes)


# -- shared helpers ------------------------------------------------------------------------------
def _distinct(values: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(values))


def _number(text: str) -> Decimal | None:
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def _date(text: str) -> date | None:
    match = _ISO_DATE.match(text)
    if match is None:
        return None
    try:
        return date(*(int(part) for part in match.groups()))
    except ValueError:
        return None


def _parse_all(
    values: Sequence[str], parse: Callable[[str], T | None], key: str, kind: str, fix: str
) -> list[tuple[T, str]]:
    """(parsed, text) of the distinct values in parsed order; any unparsable value is an error."""
    parsed = [(parse(v), v) for v in _distinct(values)]
    good = [(p, v) for p, v in parsed if p is not None]
    if len(good) < len(parsed):
        bad = len(parsed) - len(good)
        raise HierarchyError(
            key, f"{bad} of the column's {len(parsed)} distinct values are not {kind}", fix
        )
    return sorted(good)


def natural_order(values: Sequence[str]) -> list[str]:
    """The distinct values sorted numerically when all are numbers, else as text."""
    distinct = _distinct(values)
    numbers = [(n, v) for v in distinct if (n := _number(v)) is not None]
    if len(numbers) == len(distinct):
        return [v for _, v in sorted(numbers)]
    return sorted(distinct)


def _format_number(number: Decimal) -> str:
    if number == 0:
        return "0"
    return format(number.normalize(), "f")


def _fill(template: str, first: str, last: str) -> str:
    """``template`` with ``{first}`` and ``{last}`` replaced in one pass (values may hold them)."""
    return _PLACEHOLDER.sub(lambda m: first if m[1] == "first" else last, template)


def _merge(runs: list[Run], groups: list[int]) -> list[Run]:
    """Merge consecutive runs that share a group number."""
    merged = []
    for _, members in itertools.groupby(zip(groups, runs, strict=True), key=lambda g: g[0]):
        chunk = [run for _, run in members]
        merged.append((chunk[0][0], chunk[-1][1]))
    return merged


def _run_levels(
    weights: Sequence[int], groupings: Sequence[Callable[[list[int]], list[int]]]
) -> list[list[Run]]:
    """Each level's runs of leaves; a grouping maps the weights of the runs below to groups."""
    runs = [(i, i) for i in range(len(weights))]
    levels = []
    for grouping in groupings:
        runs = _merge(runs, grouping([sum(weights[a : b + 1]) for a, b in runs]))
        levels.append(runs)
    return levels


def _run_paths(leaves: Sequence[str], levels: list[list[Run]], template: str) -> Paths:
    """Paths of leaves grouped by nested runs; a run is labelled ``template`` of its ends."""
    labels = []
    for runs in levels:
        level = [""] * len(leaves)
        for a, b in runs:
            text = leaves[a] if a == b else _fill(template, leaves[a], leaves[b])
            level[a : b + 1] = [text] * (b - a + 1)
        labels.append(level)
    return [[leaf, *(level[i] for level in labels), ROOT] for i, leaf in enumerate(leaves)]


def _equal_frequency(weights: list[int], bins: int) -> list[int]:
    """Bin of each item so that bins carry equal weight; an item goes where its middle falls."""
    total = sum(weights)
    groups = []
    cumulative = 0
    for weight in weights:
        groups.append(min(bins - 1, (2 * cumulative + weight) * bins // (2 * total)))
        cumulative += weight
    return groups


def _chunks(size: int, weights: list[int]) -> list[int]:
    return [i // size for i in range(len(weights))]


def _decreasing(sizes: list[int], what: str) -> list[int]:
    if any(b >= a for a, b in itertools.pairwise(sizes)):
        raise Invalid(
            f"{what} must decrease from level to level (got {sizes})",
            f"list {what} from the finest level to the coarsest, e.g. [8, 4, 2]",
        )
    return sizes


# -- builders ------------------------------------------------------------------------------------
_NUMERIC_FIX = "this builder needs a numeric column; use the mask or ordered builder for text"


@_register
class IntervalBuilder(HierarchyBuilder):
    """Numbers into fixed-width intervals ``[lo, hi)``, one width per level, finest first.

    Give ``widths`` (e.g. ``[5, 10, 20]``, each a multiple of the one before so that levels nest),
    or ``width``, ``fanout`` (default 2) and ``levels`` for ``width * fanout**i``. Intervals are
    anchored at ``origin`` (default: the smallest value).
    """

    name = "interval"

    widths: list[PositiveDecimal] | None = Field(default=None, min_length=1)
    width: PositiveDecimal | None = None
    fanout: FanOut = 2
    levels: int | None = Field(default=None, ge=1)
    origin: Decimal | None = Field(default=None, allow_inf_nan=False)

    @field_validator("widths")
    @classmethod
    def _nested(cls, widths: list[Decimal] | None) -> list[Decimal] | None:
        for a, b in itertools.pairwise(widths or []):
            if b <= a or b % a != 0:
                raise Invalid(
                    f"each width must be a larger multiple of the one before (got "
                    f"{_format_number(a)} then {_format_number(b)})",
                    "use nesting widths such as [5, 10, 20]",
                )
        return widths

    @model_validator(mode="after")
    def _one_form(self) -> IntervalBuilder:
        if (self.widths is None) == (self.width is None):
            raise Invalid(
                "give either `widths` or `width` (with `levels`)",
                "e.g. widths: [5, 10, 20], or width: 5, fanout: 2, levels: 3",
            )
        if self.width is not None and self.levels is None:
            raise Invalid("`width` needs `levels`", "add levels: <number of interval levels>")
        if self.widths is not None and self.model_fields_set & {"fanout", "levels"}:
            raise Invalid(
                "`fanout` and `levels` go with `width`, not `widths`",
                "drop them, or replace `widths` by `width`",
            )
        return self

    def level_widths(self) -> list[Decimal]:
        """The interval width of each level, finest first."""
        if self.widths is not None:
            return self.widths
        assert self.width is not None and self.levels is not None
        return [self.width * self.fanout**i for i in range(self.levels)]

    def paths(self, values: Sequence[str], key: str) -> Paths:
        numbers = _parse_all(values, _number, key, "numbers", _NUMERIC_FIX)
        origin = self.origin if self.origin is not None else numbers[0][0]
        widths = self.level_widths()
        return [[text, *(_interval(n, origin, w) for w in widths), ROOT] for n, text in numbers]


def _interval(number: Decimal, origin: Decimal, width: Decimal) -> str:
    low = origin + ((number - origin) / width).to_integral_value(ROUND_FLOOR) * width
    return f"[{_format_number(low)}, {_format_number(low + width)})"


@_register
class QuantileBuilder(HierarchyBuilder):
    """Numbers into equal-frequency bins ``[lo, hi]`` labelled by their smallest and largest value.

    ``bins`` gives the number of bins per level, finest first (e.g. ``[8, 4, 2]``); each level
    merges adjacent bins of the one below. Frequencies are those of ``values``: each distinct
    value counts once, or as often as it is repeated there.
    """

    name = "quantile"

    bins: list[FanOut] = Field(min_length=1)

    @field_validator("bins")
    @classmethod
    def _decreasing_bins(cls, bins: list[int]) -> list[int]:
        return _decreasing(bins, "bins")

    def paths(self, values: Sequence[str], key: str) -> Paths:
        counts = Counter(values)
        numbers = _parse_all(values, _number, key, "numbers", _NUMERIC_FIX)
        leaves = [text for _, text in numbers]
        groupings = [partial(_equal_frequency, bins=b) for b in self.bins]
        levels = _run_levels([counts[leaf] for leaf in leaves], groupings)
        return _run_paths(leaves, levels, "[{first}, {last}]")


@_register
class MaskBuilder(HierarchyBuilder):
    """Text such as ZIP codes, masking ``step`` more trailing characters per level with ``char``.

    ``02139`` becomes ``0213*``, ``021**``, ... up to ``levels`` (default: enough to mask the
    longest value entirely). Values of different lengths are masked from their own end and so stay
    apart below the root. With ``pad`` (e.g. ``'0'``), shorter values are first left-padded to the
    longest length, which suits codes stored as integers (``2139`` -> ``0213*``); the leaves keep
    the original text.
    """

    name = "mask"

    char: str = Field(default="*", min_length=1, max_length=1)
    step: int = Field(default=1, ge=1)
    levels: int | None = Field(default=None, ge=1)
    pad: str | None = Field(default=None, min_length=1, max_length=1)

    @model_validator(mode="after")
    def _distinct_chars(self) -> MaskBuilder:
        if self.pad == self.char:
            raise Invalid("`pad` and `char` must differ", "pad with '0' and mask with '*'")
        return self

    def paths(self, values: Sequence[str], key: str) -> Paths:
        leaves = _distinct(values)
        clashing = sum(self.char in v for v in leaves)
        if clashing:
            raise HierarchyError(
                f"{key}.char",
                f"{clashing} of the column's distinct values contain the mask character",
                "choose another `char`",
            )
        longest = max((len(v) for v in leaves), default=0)
        padded = {v: v.rjust(longest, self.pad) if self.pad else v for v in leaves}
        levels = self.levels or max(1, math.ceil(longest / self.step))
        if levels > MAX_LEVELS:
            raise HierarchyError(
                f"{key}.levels",
                f"masking {longest} characters {self.step} at a time makes {levels} levels, more "
                f"than the {MAX_LEVELS} a hierarchy may have",
                f"set `step` to at least {math.ceil(longest / MAX_LEVELS)}, or `levels`",
            )
        ordered = sorted(leaves, key=lambda v: (padded[v], v))
        return [
            [v, *(self._masked(padded[v], i) for i in range(1, levels + 1)), ROOT] for v in ordered
        ]

    def _masked(self, text: str, level: int) -> str:
        hidden = min(level * self.step, len(text))
        return text[: len(text) - hidden] + self.char * hidden


DateLevel = Literal["month", "year", "decade", "century"]
_DATE_LEVELS: tuple[DateLevel, ...] = ("month", "year", "decade", "century")


@_register
class DateBuilder(HierarchyBuilder):
    """ISO dates or timestamps into calendar periods, finest first.

    ``levels`` is an increasing subset of ``month`` (``2020-01``), ``year`` (``2020``), ``decade``
    (``2020s``) and ``century`` (``2000-2099``); the default is month, year, decade.
    """

    name = "date"

    levels: list[DateLevel] = Field(default=["month", "year", "decade"], min_length=1)

    @field_validator("levels")
    @classmethod
    def _increasing(cls, levels: list[DateLevel]) -> list[DateLevel]:
        ranks = [_DATE_LEVELS.index(level) for level in levels]
        if any(b <= a for a, b in itertools.pairwise(ranks)):
            raise Invalid(
                f"levels must go from finer to coarser without repeats (got {levels})",
                f"use an increasing subset of {list(_DATE_LEVELS)}",
            )
        return levels

    def paths(self, values: Sequence[str], key: str) -> Paths:
        dates = _parse_all(
            values,
            _date,
            key,
            "ISO dates (YYYY-MM-DD, optionally with a time)",
            "use this builder on DATE or TIMESTAMP columns",
        )
        return [[text, *(_period(d, level) for level in self.levels), ROOT] for d, text in dates]


def _period(day: date, level: DateLevel) -> str:
    if level == "month":
        return f"{day.year:04d}-{day.month:02d}"
    if level == "year":
        return f"{day.year:04d}"
    if level == "decade":
        return f"{day.year // 10 * 10:04d}s"
    start = day.year // 100 * 100
    return f"{start:04d}-{start + 99:04d}"


@_register
class OrderedBuilder(HierarchyBuilder):
    """Values in a given order, grouped into consecutive runs of ``group_sizes[i]`` per level.

    ``order`` lists the values (default: sorted, numerically when all values are numbers); values
    it lists that the column lacks are kept as leaves. A group is labelled ``label`` with
    ``{first}`` and ``{last}`` replaced by its first and last value (default ``{first}..{last}``).
    """

    name = "ordered"

    order: list[str] | None = None
    group_sizes: list[FanOut] = Field(min_length=1)
    label: str = "{first}..{last}"

    @field_validator("order")
    @classmethod
    def _unique(cls, order: list[str] | None) -> list[str] | None:
        if order is not None and len(set(order)) < len(order):
            raise Invalid("the order lists a value more than once", "list each value once")
        return order

    @field_validator("label")
    @classmethod
    def _placeholders(cls, label: str) -> str:
        if "{first}" not in label or "{last}" not in label:
            raise Invalid(
                "the label must hold both {first} and {last}", "e.g. label: '{first} to {last}'"
            )
        return label

    def paths(self, values: Sequence[str], key: str) -> Paths:
        leaves = natural_order(values) if self.order is None else self._listed(values, key)
        groupings = [partial(_chunks, size) for size in self.group_sizes]
        return _run_paths(leaves, _run_levels([1] * len(leaves), groupings), self.label)

    def _listed(self, values: Sequence[str], key: str) -> list[str]:
        assert self.order is not None
        listed = set(self.order)
        missing = sum(v not in listed for v in _distinct(values))
        if missing:
            raise HierarchyError(
                f"{key}.order",
                f"{missing} distinct values of the column are not listed",
                "list every value of the column in `order`",
            )
        return self.order


@_register
class RedactBuilder(HierarchyBuilder):
    """Every value generalized straight to the root ``*``: a class keeps its value or hides it
    (for columns with a few values and no order, such as sex; no placeholder grouping)."""

    name = "redact"

    def paths(self, values: Sequence[str], key: str) -> Paths:
        return [[v, ROOT] for v in natural_order(values)]


@_register
class FrequentBuilder(HierarchyBuilder):
    """The values listed in ``keep`` (the frequent ones, which ``anonsql init`` reads from the
    data) stay as they are at the first level and every other value is grouped under
    ``other``; then the root ``*``. The rare values, which single people out, are never named in
    the spec."""

    name = "frequent"

    keep: list[str] = Field(min_length=1)
    other: str = Field(default="other", min_length=1)

    @model_validator(mode="after")
    def _distinct_labels(self) -> FrequentBuilder:
        if len(set(self.keep)) < len(self.keep):
            raise Invalid("`keep` lists a value more than once", "list each value once")
        if self.other in self.keep or self.other == ROOT:
            raise Invalid(
                f"the label {self.other!r} of the other values is a kept value or the root",
                "choose another `other` label",
            )
        return self

    def paths(self, values: Sequence[str], key: str) -> Paths:
        distinct = natural_order(values)
        if self.other in distinct:
            raise HierarchyError(
                f"{key}.other",
                "the label of the other values is one of the column's values",
                "choose another `other` label",
            )
        kept = set(self.keep)
        return [[v, v if v in kept else self.other, ROOT] for v in distinct]
