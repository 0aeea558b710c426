"""The configuration of personalized publishing with multiple sensitive attributes.

After S. Ram Prasad Reddy, KVSVN Raju, V. Valli Kumari, "A Novel Approach for Personalized
Privacy Preserving Data Publishing with Multiple Sensitive Attributes", IJET 7 (2018)
(digest 002). The configuration is built from validated options
(:func:`~anonsql.algorithms.personalized.algorithm.build_config`: the options of
``algorithm: personalized`` check every value, the algorithm's ``bind`` checks them against the
spec and the source), so it checks nothing itself.

Two profiles:

* ``paper_compat``: the paper's pipeline as printed (digest §3.2 with its decisions): QID
  groups of >= k, per-attribute buckets of >= ``bucket_k`` (default k) with duplicates above the
  sensitivity threshold generalized up the taxonomy, fuzzy terms with exact weights, and a
  tuple-level mapping (each published tuple links its group to one bucket cell per attribute).
  It protects identity only as far as groups of >= k go; it bounds no inference (digest T14).
* ``safe`` (the default): every QID group is frequency l-diverse over every sensitive
  attribute (categorical leaves, with a generalized label counted for every leaf under it, and
  fuzzy terms), buckets are as well, weights are rounded, bucket tables are shuffled and the
  mapping is published per group and bucket (counts), not per tuple. An adversary who knows a
  target's group infers any sensitive value or term with confidence at most ``1/l`` of that
  attribute (:attr:`PersonalizedConfig.bound`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from anonsql.hierarchies import Hierarchy

#: The paper the mode follows, for the certificate.
REFERENCE = (
    "S. Ram Prasad Reddy, KVSVN Raju, V. Valli Kumari, A Novel Approach for Personalized "
    "Privacy Preserving Data Publishing with Multiple Sensitive Attributes, IJET 7, 2018"
)

Profile = Literal["paper_compat", "safe"]
FuzzyRule = Literal["paper_intervals", "triangular"]

#: Names a quasi-identifier may not take: columns of the published relations, and the private
#: row key and group of the working tables.
RESERVED_NAMES = frozenset({"group_id", "group_size", "__rid", "__group_id"})

#: Default weight rounding step of the safe profile (weights published as 0, .25, .5, .75, 1).
SAFE_WEIGHT_STEP = 0.25


@dataclass(frozen=True)
class FuzzyTerms:
    """The linguistic terms of one numeric sensitive attribute (paper §3, membership f_i).

    ``rule = "triangular"`` (the standard reading, digest T5b): ``points`` are the terms'
    centers c_1 < ... < c_k (one per label). Memberships are triangles over neighbouring centers
    (a Ruspini partition; values below c_1 or above c_k belong fully to the end terms); a value
    takes the term of highest membership (ties to the lower term) and publishes that membership
    as its weight.

    ``rule = "paper_intervals"`` (the reading that reproduces the paper's Table 9, digest §2.6):
    ``points`` are min, a_2, ..., a_k, max (one more than the labels). A value below a_2 takes the
    first term; otherwise the first term i >= 2 with value <= a_(i+1), the last term if none.
    The weight falls linearly from 1 at the start of the term's interval to 0 at its end
    (a_(i+1) - x) / (a_(i+1) - a_i), except for the last term, where it rises to 1 at max.
    Weights are clamped to [0, 1].
    """

    labels: tuple[str, ...]
    points: tuple[float, ...]
    rule: FuzzyRule = "triangular"


@dataclass(frozen=True)
class CategoricalSA:
    """A categorical sensitive attribute: its column, its taxonomy (every value a leaf) and
    optional per-attribute ``l`` and ``bucket_k`` overriding the configuration's."""

    column: str
    taxonomy: Hierarchy
    l: int | None = None
    bucket_k: int | None = None


@dataclass(frozen=True)
class NumericSA:
    """A numeric sensitive attribute, published as fuzzy terms with weights; ``l`` (over its
    terms) and ``bucket_k`` override the configuration's for this attribute."""

    column: str
    terms: FuzzyTerms
    l: int | None = None
    bucket_k: int | None = None


SensitiveAttribute = CategoricalSA | NumericSA


@dataclass(frozen=True)
class ClusterKey:
    """One part of the 1D order in which quasi-identifier rows are grouped.

    Rows are sorted by the key's parts in turn; rows with equal keys form a *block*, which is
    never split. ``prefix`` keeps that many leading characters of the value's text (digest T3:
    the first digit of ZIPCODE), so the key is coarser than the value.
    """

    column: str
    prefix: int | None = None


@dataclass(frozen=True)
class PersonalizedConfig:
    """Everything one personalized release needs (built from validated options).

    ``consent_column`` holds each subject's privacy-disclosure flag (the paper's PD); a row is
    published only when its value is one of ``consent_values`` (NULL never is); None publishes
    every row (no subject withheld consent, or consent is recorded elsewhere). ``k`` is the
    minimum QID group size, ``l`` the diversity of every sensitive attribute (per attribute
    overridable), ``bucket_k`` the minimum bucket size (default: ``k`` in paper_compat, the
    attribute's ``l`` in safe), ``sensitivity_threshold`` the paper's theta (copies of one label
    a bucket may hold before the rest climb the taxonomy). ``weight_step`` rounds published
    weights to multiples of the step (None: the profile's default, 0.25 in safe and exact in
    paper_compat; 0: exact). ``cluster_key`` is the 1D order of QID grouping (default: the
    quasi-identifiers in order). ``seed`` keys the shuffles and tie-breaks (None: a fresh secret
    key per run); a seed that becomes public makes the shuffles predictable.
    """

    quasi_identifiers: tuple[str, ...]
    consent_column: str | None
    categorical: tuple[CategoricalSA, ...] = ()
    numeric: tuple[NumericSA, ...] = ()
    consent_values: tuple[bool | int | str, ...] = (True,)
    profile: Profile = "safe"
    k: int = 10
    l: int = 2
    bucket_k: int | None = None
    sensitivity_threshold: int = 1
    weight_step: float | None = None
    cluster_key: tuple[ClusterKey, ...] = ()
    seed: int | None = None
    #: The key the data's errors name (e.g. too few consenting rows for ``<key>.k``).
    key: str = field(default="personalized", compare=False)

    @property
    def sensitive(self) -> tuple[SensitiveAttribute, ...]:
        """Every sensitive attribute, categorical first; positions are attribute numbers."""
        return (*self.categorical, *self.numeric)

    @property
    def sensitive_columns(self) -> tuple[str, ...]:
        return tuple(s.column for s in self.sensitive)

    def l_of(self, attribute: int) -> int:
        """The diversity required of attribute number ``attribute``."""
        own = self.sensitive[attribute].l
        return self.l if own is None else own

    def bound(self, attribute: int) -> float:
        """The declared bound of the safe profile on an adversary's confidence in one value or
        term of attribute number ``attribute`` (1.0: no bound)."""
        return 1.0 / self.l_of(attribute)

    def bucket_k_of(self, attribute: int) -> int:
        """The minimum bucket size of attribute number ``attribute`` (the paper's K of the
        sensitive phases, digest G3: its own, else the configuration's, else the profile's)."""
        own = self.sensitive[attribute].bucket_k
        if own is not None:
            return own
        if self.bucket_k is not None:
            return self.bucket_k
        return self.k if self.profile == "paper_compat" else self.l_of(attribute)

    @property
    def published_weight_step(self) -> float | None:
        """The rounding step of published weights, or None for exact weights."""
        if self.weight_step is None:
            return SAFE_WEIGHT_STEP if self.profile == "safe" else None
        return self.weight_step if self.weight_step > 0 else None

    @property
    def grouping_key(self) -> tuple[ClusterKey, ...]:
        return self.cluster_key or tuple(ClusterKey(q) for q in self.quasi_identifiers)


def sensitive_index(config: PersonalizedConfig) -> Mapping[str, int]:
    """Sensitive column name -> attribute number."""
    return {c: i for i, c in enumerate(config.sensitive_columns)}
