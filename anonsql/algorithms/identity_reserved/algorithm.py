"""``algorithm: danonyir`` and ``algorithm: geneir``: identity-reserved publishing in the pipeline
(Wang, Du, Luo, Li, KAIS 2019, §4-5).

Both work on *individuals* (persons, ``person_id``): the prepare step has built one row per
person in the engine (``persons``: the person's pseudonym number, coded quasi-identifiers and
record count); here each person's sensitive values are counted in the engine
(``person_values``: person, value code, records) and both are fetched compact and encoded
(integers only, :class:`~.encoding.Individuals`). The clustering runs in Python (it is
inherently sequential: see :mod:`.danonyir`), and its decisions go back as small tables:

* ``rows``: person -> class (``pid``), the working table every layout reads;
* ``parts``: per class its size in individuals, whether it is suppressed, numeric ranges and
  the hierarchy node covering each categorical value set (what :mod:`anonsql.stage` expects);
* ``class_labels``: per class the published text of every quasi-identifier — DAnonyIR's set
  generalization (``{a, b}``; numeric ``[lo, hi]``), GeneIR's taxonomy node labels (numeric
  ``[lo, hi]`` of the node's leaves), see :mod:`.generalization`.

The release layout ``identity_reserved`` (:mod:`anonsql.layouts.identity_reserved`) publishes
every record of every published individual with its pseudonym and class labels; suppressed
individuals are left out and counted in the certificate.

The decision function comes from the spec's privacy list: the models' bounds
(:func:`~.decisions.requirements`); a model whose bounds these algorithms do not know is refused
when the spec is resolved. With ``record_counts: protected`` each record count is clustered
separately (:func:`~.record_counts.by_record_count`). Handle (and GeneIR's residual step)
suppress at most ``suppression_limit`` of the records.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pyarrow as pa
from pydantic import Field

from anonsql import arrow
from anonsql.algorithms.base import Algorithm, O, Options, Partitioning, ProgressCallback
from anonsql.algorithms.facts import IdentityReservedFacts
from anonsql.algorithms.identity_reserved.danonyir import DAnonyIROptions, danonyir
from anonsql.algorithms.identity_reserved.decisions import requirements, unenforced
from anonsql.algorithms.identity_reserved.encoding import (
    CategoricalDomain,
    Individuals,
    NumericDomain,
)
from anonsql.algorithms.identity_reserved.geneir import GeneIROptions, geneir
from anonsql.algorithms.identity_reserved.generalization import (
    Clustering,
    format_interval,
    format_number,
    format_set,
)
from anonsql.algorithms.identity_reserved.limits import (
    MAX_DANONYIR_INDIVIDUALS,
    MAX_GENEIR_INDIVIDUALS,
    LimitError,
)
from anonsql.algorithms.identity_reserved.record_counts import by_record_count
from anonsql.algorithms.lca import HierarchyArrays
from anonsql.algorithms.workspace import Dimension, Workspace
from anonsql.arrays import IntArray
from anonsql.errors import InfeasibleError, SpecError
from anonsql.hierarchies import Hierarchy
from anonsql.privacy.base import PrivacyModel
from anonsql.privacy.identity_reserved import REFERENCE

#: The release layout both algorithms leave tables for.
LAYOUT = "identity_reserved"


class DAnonyIRSpecOptions(Options):
    """``seed``: the random seed individuals; ``decision``: the incremental decision functions
    (SatPriIRInc, the paper's) or the exact ones from scratch (SatPriIR); ``handle``: Handle's
    policy (``cost``: suppress a residual individual when that costs less than merging it, as
    the paper; ``merge``: only when no class admits it); ``max_individuals``: the size limit."""

    seed: int = 0
    decision: Literal["incremental", "exact"] = "incremental"
    handle: Literal["cost", "merge"] = "cost"
    max_individuals: int = Field(default=MAX_DANONYIR_INDIVIDUALS, ge=1)


class GeneIRSpecOptions(Options):
    """``seed``: the random choice of the quasi-identifier to generalize; ``order``: the
    quasi-identifiers to generalize first, one level each; ``fanout``: the taxonomy of a numeric
    quasi-identifier (which takes no hierarchy) groups ``fanout`` consecutive distinct values per
    level; ``max_individuals``: the size limit."""

    seed: int = 0
    order: list[str] = Field(default_factory=list)
    fanout: int = Field(default=2, ge=2)
    max_individuals: int = Field(default=MAX_GENEIR_INDIVIDUALS, ge=1)


class IdentityReservedAlgorithm(Algorithm[O]):
    """Shared shape of DAnonyIR and GeneIR in the pipeline (see the module docstring)."""

    person_level = True
    layout = LAYOUT
    reference = REFERENCE

    def check_models(self, models: Sequence[PrivacyModel]) -> None:
        for position, model in enumerate(models):
            why = unenforced(model)
            if why is not None:
                raise SpecError(
                    f"privacy[{position}].{model.name}",
                    f"the {self.name} algorithm cannot enforce this model: {why}",
                    "use the identity-reserved models (ir_kl_anonymity, ir_alpha_beta_anonymity, "
                    "eir_l_diversity, eir_alpha_beta_anonymity) or person_k_anonymity, or "
                    "algorithm: one_to_many",
                )
        requirements(models)

    @abstractmethod
    def limit(self) -> int:
        """The most individuals the algorithm accepts (its ``max_individuals`` option)."""

    def partition(self, workspace: Workspace, progress: ProgressCallback) -> Partitioning:
        link = workspace.person
        assert link is not None, (
            "the resolve step refuses person-level algorithms without person_id"
        )
        if link.persons > self.limit():
            raise LimitError(
                f"algorithm.{self.name}.max_individuals",
                f"the source has {link.persons} individuals, above {self.name}'s limit of "
                f"{self.limit()}",
                "anonymize a subset (e.g. per region), use algorithm: one_to_many, or raise "
                "max_individuals",
            )
        e = workspace.engine
        start = e.stats.statements
        required = requirements(workspace.models)
        progress(f"encoding {link.persons} individuals")
        individuals = fetch_workspace_individuals(workspace, required.column)
        budget = workspace.suppression_budget
        progress(f"clustering {len(individuals)} individuals with {self.name}")

        def cluster(part: Individuals, left: int) -> Clustering:
            return self.cluster(workspace, part, left)

        if required.refined:
            clustering = _per_record_count(individuals, cluster, budget)
        else:
            clustering = cluster(individuals, budget)
        if clustering.classes == 0:
            raise InfeasibleError(
                "no class of individuals satisfies the models, so nothing can be published. "
                "Fix: relax the models' parameters"
            )
        write_clustering(workspace, individuals, clustering)
        return Partitioning(
            partitions=clustering.classes,
            suppressed_rows=clustering.suppressed_records,
            suppressed_partitions=int(clustering.suppressed_individuals > 0),
            rounds=1,
            statements=e.stats.statements - start,
            facts=IdentityReservedFacts(
                suppressed_individuals=clustering.suppressed_individuals,
                generalization="taxonomy" if clustering.nodes is not None else "set",
                record_counts="protected" if required.refined else "published",
            ),
        )

    @abstractmethod
    def cluster(self, workspace: Workspace, individuals: Individuals, budget: int) -> Clustering:
        """Cluster ``individuals`` (one record count's, when counts are protected), suppressing
        at most ``budget`` records."""


class DAnonyIR(IdentityReservedAlgorithm[DAnonyIRSpecOptions]):
    """DAnonyIR (Wang et al. 2019, §4): greedy clustering with set generalization and Handle."""

    name = "danonyir"

    def limit(self) -> int:
        return self.options.max_individuals

    def cluster(self, workspace: Workspace, individuals: Individuals, budget: int) -> Clustering:
        options = self.options
        return danonyir(
            individuals,
            list(workspace.models),
            DAnonyIROptions(
                seed=options.seed,
                incremental=options.decision == "incremental",
                max_individuals=options.max_individuals,
                handle=options.handle,
                suppression_budget=budget,
            ),
        )


class GeneIR(IdentityReservedAlgorithm[GeneIRSpecOptions]):
    """GeneIR (Tong et al. 2010, the baseline of Wang et al. 2019, §5.1): bottom-up taxonomy
    generalization; a numeric quasi-identifier climbs a balanced taxonomy of its values."""

    name = "geneir"

    def limit(self) -> int:
        return self.options.max_individuals

    def cluster(self, workspace: Workspace, individuals: Individuals, budget: int) -> Clustering:
        options = self.options
        names = {d.column for d in workspace.dimensions}
        for position, column in enumerate(options.order):
            if column not in names:
                raise SpecError(
                    f"algorithm.geneir.order[{position}]",
                    f"{column!r} is not a quasi-identifier",
                    f"name quasi-identifiers: {', '.join(sorted(names))}",
                )
        return geneir(
            individuals,
            list(workspace.models),
            taxonomies(workspace, individuals, options.fanout),
            GeneIROptions(
                seed=options.seed,
                order=tuple(options.order),
                max_individuals=options.max_individuals,
                suppression_budget=budget,
            ),
        )


def _per_record_count(
    individuals: Individuals, cluster: Callable[[Individuals, int], Clustering], budget: int
) -> Clustering:
    """Each record count clustered on its own, the suppression budget shared by all."""
    left = [budget]

    def run(part: Individuals) -> Clustering:
        result = cluster(part, left[0])
        left[0] -= result.suppressed_records
        return result

    return by_record_count(individuals, run)


# -- encoding the workspace's individuals -------------------------------------------------------


def fetch_workspace_individuals(workspace: Workspace, column: str | None) -> Individuals:
    """The workspace's persons as :class:`~.encoding.Individuals`: ids are the persons'
    pseudonym numbers, numeric quasi-identifiers their values (domain: the data's range),
    categorical ones their leaf ranks (domain: the hierarchy's leaves), and, when a model reads
    ``column``, each person's distinct values (codes, NULL one of them) with their records."""
    e, dims = workspace.engine, workspace.dimensions
    persons = e.query_arrow(
        "identity_reserved/fetch_persons", persons=workspace.work("persons"), dims=dims
    )
    n = persons.num_rows
    ids = arrow.to_numpy(persons.column("person")).astype(np.int64)
    numeric = [d for d in dims if d.is_numeric]
    categorical = [d for d in dims if not d.is_numeric]
    low = np.zeros((n, len(numeric)))
    for i, d in enumerate(numeric):
        low[:, i] = arrow.to_numpy(persons.column(d.code)).astype(np.float64)
    codes = np.zeros((n, len(categorical)), dtype=np.int64)
    for i, d in enumerate(categorical):
        codes[:, i] = arrow.to_numpy(persons.column(d.code)).astype(np.int64)
    indptr = np.zeros(n + 1, dtype=np.int64)
    sa_codes = sa_records = np.zeros(0, dtype=np.int64)
    values: tuple[Any, ...] = ()
    if column is not None:
        e.run(
            "identity_reserved/person_values",
            target=workspace.work("person_values"),
            source=workspace.source,
            persons=workspace.work("persons"),
            person=workspace.person.column if workspace.person else None,
            column=column,
        )
        pairs = e.query_arrow(
            "identity_reserved/fetch_person_values", values=workspace.work("person_values")
        )
        position = np.searchsorted(ids, arrow.to_numpy(pairs.column("person")).astype(np.int64))
        indptr[1:] = np.cumsum(np.bincount(position, minlength=n))
        sa_codes = arrow.to_numpy(pairs.column("code")).astype(np.int64)
        sa_records = arrow.to_numpy(pairs.column("records")).astype(np.int64)
        distinct = int(sa_codes.max()) + 1 if sa_codes.size else 0
        values = tuple(range(distinct))
    return Individuals(
        ids=ids,
        records=arrow.to_numpy(persons.column("n")).astype(np.int64),
        numeric=tuple(NumericDomain(d.column, d.global_min, d.global_max) for d in numeric),
        categorical=tuple(
            CategoricalDomain(d.column, tuple(_hierarchy(d).leaves)) for d in categorical
        ),
        low=low,
        high=low.copy(),
        codes=codes,
        sa_indptr=indptr,
        sa_codes=sa_codes,
        sa_records=sa_records,
        sa_values=values,
    )


def _hierarchy(d: Dimension) -> Hierarchy:
    assert d.hierarchy is not None, "categorical dimensions have their hierarchy once prepared"
    return d.hierarchy


def numeric_taxonomy(name: str, values: npt.ArrayLike, fanout: int) -> Hierarchy:
    """A balanced taxonomy over a numeric attribute's distinct values: level ``i`` groups
    ``fanout**i`` consecutive values, labelled ``[lo, hi]``; the root is ``*``."""
    distinct = np.unique(np.asarray(values, dtype=np.float64))
    labels = [format_number(float(v)) for v in distinct]
    paths: list[list[str]] = [[label] for label in labels]
    width = 1
    while width * fanout < distinct.shape[0]:
        width *= fanout
        for j, path in enumerate(paths):
            first = (j // width) * width
            last = min(first + width, distinct.shape[0]) - 1
            path.append(format_interval(float(distinct[first]), float(distinct[last])))
    for path in paths:
        path.append("*")
    return Hierarchy(paths, name=name, origin=f"the balanced taxonomy of {name}")


def taxonomies(workspace: Workspace, individuals: Individuals, fanout: int) -> dict[str, Hierarchy]:
    """GeneIR's taxonomy per quasi-identifier: the hierarchy of a categorical one, a balanced
    taxonomy of the values of a numeric one."""
    found = {d.column: _hierarchy(d) for d in workspace.dimensions if not d.is_numeric}
    for i, domain in enumerate(individuals.numeric):
        found[domain.name] = numeric_taxonomy(domain.name, individuals.low[:, i], fanout)
    return found


# -- decisions back to the engine ---------------------------------------------------------------


def class_labels(
    individuals: Individuals, clustering: Clustering, dims: Sequence[Dimension]
) -> dict[str, list[str]]:
    """Each class's published text per quasi-identifier (``g<i>`` by dimension index)."""
    numeric = [d for d in dims if d.is_numeric]
    categorical = [d for d in dims if not d.is_numeric]
    labels: dict[str, list[str]] = {}
    for a, d in enumerate(numeric):
        labels[f"g{d.index}"] = [
            format_interval(float(lo), float(hi))
            for lo, hi in zip(clustering.low[:, a], clustering.high[:, a], strict=True)
        ]
    for c, d in enumerate(categorical):
        hierarchy = _hierarchy(d)
        if clustering.nodes is not None:
            labels[f"g{d.index}"] = [hierarchy.nodes[int(i)].label for i in clustering.nodes[:, c]]
            continue
        member = clustering.sets[c]
        leaves = individuals.categorical[c].values
        labels[f"g{d.index}"] = [
            format_set([leaves[v] for v in member.indices[member.indptr[j] : member.indptr[j + 1]]])
            for j in range(clustering.classes)
        ]
    return labels


def _covering_nodes(clustering: Clustering, c: int, d: Dimension) -> IntArray:
    """The hierarchy node covering each class's values of categorical dimension ``d``."""
    if clustering.nodes is not None:
        return clustering.nodes[:, c].astype(np.int64)
    member = clustering.sets[c]
    starts, ends = member.indptr[:-1], member.indptr[1:]
    first = member.indices[starts].astype(np.int64)
    last = member.indices[ends - 1].astype(np.int64)
    nodes: IntArray = HierarchyArrays(_hierarchy(d)).lca(first, last).astype(np.int64)
    return nodes


def write_clustering(
    workspace: Workspace, individuals: Individuals, clustering: Clustering
) -> None:
    """``rows``, ``parts`` and ``class_labels`` of a clustering (the module docstring); the
    suppressed individuals form one part flagged suppressed (pid = the number of classes)."""
    e, dims = workspace.engine, workspace.dimensions
    classes = clustering.classes
    suppressed = clustering.suppressed_individuals > 0
    pid = np.where(clustering.cluster >= 0, clustering.cluster, classes).astype(np.int64)
    e.load_arrow(
        workspace.work("assignment"),
        arrow.table({"person": arrow.array(individuals.ids, pa.int64()), "pid": arrow.array(pid)}),
    )
    e.run(
        "identity_reserved/rows",
        target=workspace.work("rows"),
        persons=workspace.work("persons"),
        assignment=workspace.work("assignment"),
        dims=dims,
    )
    parts: dict[str, pa.Array] = {
        "pid": arrow.array(np.arange(classes + int(suppressed), dtype=np.int64)),
        "n": arrow.array(
            np.append(clustering.persons, clustering.suppressed_individuals)[
                : classes + int(suppressed)
            ].astype(np.int64)
        ),
        "suppressed": arrow.array([False] * classes + [True] * int(suppressed)),
    }
    numeric = [d for d in dims if d.is_numeric]
    for a, d in enumerate(numeric):
        for bound, values, default in (
            ("lo", clustering.low[:, a], d.global_min),
            ("hi", clustering.high[:, a], d.global_max),
        ):
            column = np.append(values, default) if suppressed else values
            parts[f"{bound}{d.index}"] = arrow.array(column.astype(np.float64))
    for c, d in enumerate(d for d in dims if not d.is_numeric):
        nodes = _covering_nodes(clustering, c, d)
        if suppressed:
            root = HierarchyArrays(_hierarchy(d)).lca(
                np.array([0]), np.array([_hierarchy(d).leaf_count - 1])
            )
            nodes = np.append(nodes, root)
        parts[f"node{d.index}"] = arrow.array(nodes.astype(np.int32))
    e.load_arrow(workspace.work("parts"), arrow.table(parts))
    labels = class_labels(individuals, clustering, dims)
    e.load_arrow(
        workspace.work("class_labels"),
        arrow.table(
            {
                "pid": arrow.array(np.arange(classes, dtype=np.int64)),
                **{name: arrow.array(texts, pa.string()) for name, texts in labels.items()},
            }
        ),
    )


__all__ = [
    "DAnonyIR",
    "DAnonyIRSpecOptions",
    "GeneIR",
    "GeneIRSpecOptions",
    "fetch_workspace_individuals",
    "numeric_taxonomy",
    "write_clustering",
]
