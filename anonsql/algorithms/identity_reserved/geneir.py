"""GeneIR (Tong, Tao, Tang, Chen, J. Software 2010, as summarized by Wang et al., KAIS 2019,
§5.1 and §6.1.3): bottom-up taxonomy generalization for the IR models, the paper's baseline.

1. Group the individuals by their quasi-identifier values; every group that satisfies ``π``
   becomes a class of ``D*`` and leaves ``D``.
2. While the remaining individuals as a whole still satisfy ``π``: pick a quasi-identifier (at
   random, or from ``order``) and generalize it one level up its taxonomy for every remaining
   individual (each value to its parent, the root staying the root), regroup, and move every
   satisfying group to ``D*``. Classes moved at different times keep their own levels.
3. Every residual individual joins the closest class (least information-loss increase, Eq. 17,
   the class's nodes generalized to cover it); for the non-monotone (α,β) models only classes
   that still satisfy ``π`` with it qualify, and an individual with none is suppressed.

Numeric quasi-identifiers climb taxonomies too (their leaves are numbers); published values are the
nodes' leaf intervals and leaf sets (:mod:`.generalization`), so the loss is comparable with
DAnonyIR's when both use the same domains (declare the numeric domains as the hierarchies' leaf
ranges and the categorical domains as their leaves). Each step regroups the remaining individuals
(O(n log n), vectorized); limit
:data:`~anonsql.algorithms.identity_reserved.limits.MAX_GENEIR_INDIVIDUALS`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from anonsql.algorithms.identity_reserved.danonyir import SuppressionBudget, unplaceable
from anonsql.algorithms.identity_reserved.decisions import (
    Admission,
    decision_for,
    requirements,
    shares_of,
)
from anonsql.algorithms.identity_reserved.encoding import Individuals, individual_part_stats
from anonsql.algorithms.identity_reserved.generalization import Clustering, clustering_from_labels
from anonsql.algorithms.identity_reserved.limits import MAX_GENEIR_INDIVIDUALS, LimitError
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.arrays import BoolArray, FloatArray, IntArray
from anonsql.errors import SpecError
from anonsql.hierarchies import Hierarchy
from anonsql.privacy.base import PrivacyModel


@dataclass(frozen=True)
class GeneIROptions:
    """``order`` names the quasi-identifiers to generalize first, one level each, in order
    (then random choices driven by ``seed``); ``suppression_budget`` the records the residual
    step may suppress (individuals no class admits; None: no bound, as in the paper)."""

    seed: int = 0
    order: tuple[str, ...] = ()
    max_individuals: int = MAX_GENEIR_INDIVIDUALS
    suppression_budget: int | None = None


class _Taxonomy:
    """One quasi-identifier's taxonomy as arrays: ancestors per level, node leaf ranges, and
    each node's published box (numeric leaf interval, or categorical leaf codes)."""

    def __init__(self, hierarchy: Hierarchy) -> None:
        arrays = HierarchyArrays(hierarchy)
        self.arrays = arrays
        self.first_leaf = np.array([n.first_leaf for n in hierarchy.nodes], dtype=np.int64)
        self.last_leaf = arrays.last_leaf
        levels = [arrays.leaf_node]
        for _ in range(hierarchy.height):
            parent = arrays.parent[levels[-1]]
            levels.append(np.where(parent >= 0, parent, levels[-1]))
        self.ancestors = np.vstack(levels)
        self.height = hierarchy.height
        self.leaves = hierarchy.leaves


def _leaf_ranks(
    individuals: Individuals, hierarchies: Mapping[str, Hierarchy]
) -> tuple[list[_Taxonomy], IntArray, list[FloatArray], list[IntArray]]:
    """Per quasi-identifier (numeric first): its taxonomy, every individual's leaf rank, and
    the maps leaf rank -> number (numeric) / leaf rank -> domain code (categorical)."""
    taxonomies: list[_Taxonomy] = []
    ranks = np.zeros((len(individuals), individuals.qid_count), dtype=np.int64)
    values: list[FloatArray] = []
    codes: list[IntArray] = []
    for a, domain in enumerate(individuals.numeric):
        taxonomy = _taxonomy(hierarchies, domain.name)
        try:
            leaf_values = np.array([float(v) for v in taxonomy.leaves], dtype=np.float64)
        except ValueError:
            raise SpecError(
                f"hierarchies.{domain.name}",
                "a numeric quasi-identifier's taxonomy has a leaf that is not a number",
                "give numeric leaves, or declare the column categorical",
            ) from None
        if (individuals.low[:, a] != individuals.high[:, a]).any():
            raise SpecError(
                f"columns.{domain.name}",
                "an individual's records carry different values (GeneIR needs one leaf each)",
                "make the column constant per individual",
            )
        order = np.argsort(leaf_values, kind="stable")
        position = np.searchsorted(leaf_values[order], individuals.low[:, a])
        position = np.minimum(position, leaf_values.shape[0] - 1)
        rank = order[position]
        if (leaf_values[rank] != individuals.low[:, a]).any():
            raise _uncovered(domain.name)
        ranks[:, a] = rank
        taxonomies.append(taxonomy)
        values.append(leaf_values)
    offset = len(individuals.numeric)
    for c, cat in enumerate(individuals.categorical):
        taxonomy = _taxonomy(hierarchies, cat.name)
        if set(taxonomy.leaves) != set(cat.values):
            raise SpecError(
                f"categories.{cat.name}",
                "GeneIR needs the categorical domain to be exactly the taxonomy's leaves",
                "declare the domain as the hierarchy's leaves",
            )
        leaf_rank = {v: i for i, v in enumerate(taxonomy.leaves)}
        rank_of_code = np.array([leaf_rank[v] for v in cat.values], dtype=np.int64)
        code_of_rank = np.argsort(rank_of_code).astype(np.int64)
        ranks[:, offset + c] = rank_of_code[individuals.codes[:, c]]
        taxonomies.append(taxonomy)
        codes.append(code_of_rank)
    return taxonomies, ranks, values, codes


def _taxonomy(hierarchies: Mapping[str, Hierarchy], name: str) -> _Taxonomy:
    if name not in hierarchies:
        raise SpecError(
            f"columns.{name}.hierarchy",
            "GeneIR generalizes along taxonomies and this quasi-identifier has none",
            "give it a hierarchy",
        )
    return _Taxonomy(hierarchies[name])


def _uncovered(name: str) -> SpecError:
    return SpecError(
        f"columns.{name}.hierarchy",
        "the column holds values that are not leaves of its taxonomy",
        "add them to the hierarchy",
    )


class _Classes:
    """Classes of ``D*`` as taxonomy node ids per quasi-identifier, with per-record loss."""

    def __init__(
        self,
        individuals: Individuals,
        taxonomies: list[_Taxonomy],
        values: list[FloatArray],
    ) -> None:
        self.taxonomies = taxonomies
        n_num = len(individuals.numeric)
        spans = np.array([d.span for d in individuals.numeric], dtype=np.float64)
        self.scale = np.divide(1.0, spans, out=np.zeros_like(spans), where=spans > 0)
        sizes = np.array([d.size for d in individuals.categorical], dtype=np.float64)
        self.weights = np.divide(1.0, sizes - 1, out=np.zeros_like(sizes), where=sizes > 1)
        self.n_num = n_num
        # per attribute and node: loss of publishing the node for one record
        self.node_loss: list[FloatArray] = []
        for a, taxonomy in enumerate(taxonomies):
            if a < n_num:
                low, high = _node_range(values[a], taxonomy)
                self.node_loss.append((high - low) * self.scale[a])
            else:
                count = (taxonomy.last_leaf - taxonomy.first_leaf).astype(np.float64)
                self.node_loss.append(count * self.weights[a - n_num])
        self.nodes = np.zeros((0, len(taxonomies)), dtype=np.int64)

    def add(self, nodes: IntArray) -> None:
        self.nodes = np.vstack([self.nodes, nodes])

    def loss(self, nodes: IntArray) -> FloatArray:
        """Per-record loss of classes published as ``nodes`` (rows of node ids)."""
        total = np.zeros(nodes.shape[0])
        for a, losses in enumerate(self.node_loss):
            total += losses[nodes[:, a]]
        return total

    def cover(self, ranks: IntArray) -> IntArray:
        """Every class's nodes generalized to also cover one individual's leaf ranks."""
        out = np.empty_like(self.nodes)
        for a, taxonomy in enumerate(self.taxonomies):
            node = self.nodes[:, a]
            first = np.minimum(taxonomy.first_leaf[node], ranks[a])
            last = np.maximum(taxonomy.last_leaf[node], ranks[a])
            out[:, a] = taxonomy.arrays.lca(first, last)
        return out


def _node_range(leaf_values: FloatArray, taxonomy: _Taxonomy) -> tuple[FloatArray, FloatArray]:
    """Smallest and largest leaf number under each node (leaf ranks are contiguous)."""
    padded = np.append(leaf_values, 0.0)
    bounds = np.column_stack([taxonomy.first_leaf, taxonomy.last_leaf + 1]).reshape(-1)
    low = np.minimum.reduceat(padded, bounds)[::2]
    high = np.maximum.reduceat(padded, bounds)[::2]
    return low, high


def geneir(
    individuals: Individuals,
    models: PrivacyModel | Sequence[PrivacyModel],
    hierarchies: Mapping[str, Hierarchy],
    options: GeneIROptions | None = None,
) -> Clustering:
    """Run GeneIR for the models (a group is a class when every model's predicate holds on
    it) with a taxonomy per quasi-identifier (by column name). The clustering's ``nodes`` are
    each class's taxonomy node ids per categorical quasi-identifier."""
    options = options or GeneIROptions()
    chosen = [models] if isinstance(models, PrivacyModel) else list(models)
    n = len(individuals)
    if n > options.max_individuals:
        raise LimitError(
            "algorithm.geneir",
            f"{n} individuals exceed GeneIR's limit of {options.max_individuals}",
            "anonymize a subset or raise max_individuals",
        )
    started = time.perf_counter()
    names = individuals.qid_names
    unknown = [q for q in options.order if q not in names]
    if unknown:
        raise SpecError("order", "names a column that is not a quasi-identifier", "fix the order")
    taxonomies, ranks, values, cat_codes = _leaf_ranks(individuals, hierarchies)
    classes = _Classes(individuals, taxonomies, values)
    rng = np.random.default_rng(options.seed)
    column = requirements(chosen).column or ""

    def holds(part: IntArray, parts: int) -> BoolArray:
        stats = individual_part_stats(individuals, part, parts, column)
        ok = np.ones(parts, dtype=bool)
        for model in chosen:
            ok &= model.holds(stats)
        return ok

    labels = np.full(n, -2, dtype=np.int64)
    level = np.zeros(len(taxonomies), dtype=np.int64)
    heights = np.array([t.height for t in taxonomies], dtype=np.int64)
    given = list(options.order)
    steps = 0

    def keys(rows: IntArray) -> IntArray:
        return np.column_stack(
            [t.ancestors[level[a], ranks[rows, a]] for a, t in enumerate(taxonomies)]
        ).astype(np.int64)

    def sweep() -> None:
        rows = np.flatnonzero(labels == -2)
        if rows.shape[0] == 0:
            return
        node_keys = keys(rows)
        unique, group = np.unique(node_keys, axis=0, return_inverse=True)
        group = group.reshape(-1)
        part = np.full(n, -1, dtype=np.int64)
        part[rows] = group
        ok = holds(part, unique.shape[0])
        moved = np.flatnonzero(ok)
        first_id = classes.nodes.shape[0]
        classes.add(unique[moved])
        new_id = np.full(unique.shape[0], -1, dtype=np.int64)
        new_id[moved] = np.arange(first_id, first_id + moved.shape[0])
        labels[rows] = np.where(new_id[group] >= 0, new_id[group], -2)

    def remainder_satisfies() -> bool:
        part = np.where(labels == -2, 0, -1)
        return bool(holds(part, 1)[0])

    sweep()
    while (labels == -2).any() and remainder_satisfies():
        climbable = np.flatnonzero(level < heights)
        if climbable.shape[0] == 0:
            break
        if given:
            a = names.index(given.pop(0))
            if level[a] >= heights[a]:
                raise ValueError("GeneIR's order climbs a quasi-identifier past its root")
        else:
            a = int(rng.choice(climbable))
        level[a] += 1
        steps += 1
        sweep()
    _residuals(individuals, chosen, classes, ranks, labels, options)
    return clustering_from_labels(
        individuals,
        labels,
        algorithm="geneir",
        model=", ".join(m.describe() for m in chosen),
        seconds=time.perf_counter() - started,
        steps=steps,
        generalization=_boxes(individuals, classes, values, cat_codes),
        nodes=classes.nodes[:, len(individuals.numeric) :],
    )


def _residuals(
    individuals: Individuals,
    models: Sequence[PrivacyModel],
    classes: _Classes,
    ranks: IntArray,
    labels: IntArray,
    options: GeneIROptions,
) -> None:
    """Step 3: residual individuals join their closest (admissible) class, else they are
    suppressed (within the suppression budget)."""
    residual = np.flatnonzero(labels == -2)
    count = classes.nodes.shape[0]
    budget = SuppressionBudget(options.suppression_budget)
    if count == 0:
        records = int(individuals.records[residual].sum())
        if residual.shape[0] and not budget.allows(records):
            raise unplaceable(int(residual.shape[0]), 0)
        labels[residual] = -1
        return
    shares = shares_of(decision_for(requirements(models), individuals))
    admission = None
    if shares is not None:
        admission = Admission(shares, labels, count)
    inside = labels >= 0
    class_records = np.bincount(
        labels[inside], weights=individuals.records[inside], minlength=count
    )
    for index in residual:
        p = int(index)
        covered = classes.cover(ranks[p])
        grown = classes.loss(covered)
        own = float(individuals.records[p])
        cost = class_records * (grown - classes.loss(classes.nodes)) + own * grown
        if admission is not None:
            cost = np.where(admission.admits(p), cost, np.inf)
        j = int(np.argmin(cost))
        if not np.isfinite(cost[j]):
            if not budget.allows(int(own)):
                raise unplaceable(int(residual.shape[0]), count)
            budget.spend(int(own))
            labels[p] = -1
            continue
        classes.nodes[j] = covered[j]
        class_records[j] += own
        labels[p] = j
        if admission is not None:
            admission.join(p, j)


def _boxes(
    individuals: Individuals,
    classes: _Classes,
    values: list[FloatArray],
    cat_codes: list[IntArray],
) -> tuple[FloatArray, FloatArray, tuple[sparse.csr_array, ...]]:
    """Each class's published box: numeric leaf intervals, categorical leaf sets (codes)."""
    count = classes.nodes.shape[0]
    n_num = classes.n_num
    low = np.zeros((count, n_num))
    high = np.zeros((count, n_num))
    for a in range(n_num):
        node_low, node_high = _node_range(values[a], classes.taxonomies[a])
        low[:, a] = node_low[classes.nodes[:, a]]
        high[:, a] = node_high[classes.nodes[:, a]]
    sets = []
    for c, cat in enumerate(individuals.categorical):
        taxonomy = classes.taxonomies[n_num + c]
        node = classes.nodes[:, n_num + c]
        first, last = taxonomy.first_leaf[node], taxonomy.last_leaf[node]
        lengths = last - first + 1
        owner = np.repeat(np.arange(count), lengths)
        rank = np.arange(owner.shape[0]) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        rank = rank + np.repeat(first, lengths)
        member = sparse.coo_array(
            (np.ones(owner.shape[0], dtype=bool), (owner, cat_codes[c][rank])),
            shape=(count, cat.size),
        ).tocsr()
        member.sort_indices()
        sets.append(sparse.csr_array(member))
    return low, high, tuple(sets)


def hierarchy_domains(
    hierarchies: Mapping[str, Hierarchy], numeric: Sequence[str], categorical: Sequence[str]
) -> tuple[dict[str, tuple[float, float]], dict[str, tuple[str, ...]]]:
    """Domains matching the taxonomies, for :func:`~anonsql.algorithms.identity_reserved.encoding.
    fetch_individuals`: numeric ``[min leaf, max leaf]``, categorical the leaves."""
    domains = {}
    for name in numeric:
        leaves = [float(v) for v in hierarchies[name].leaves]
        domains[name] = (min(leaves), max(leaves))
    categories = {name: tuple(hierarchies[name].leaves) for name in categorical}
    return domains, categories
