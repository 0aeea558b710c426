"""Dependency-preserving generalization (H. Gorla, "Dependency-Preserving Generalization for
Data Publishing", MSc thesis, McMaster University, 2019).

* :mod:`~anonsql.dependency.fds`: functional dependencies (parsing, SQL validation, instances);
* :mod:`~anonsql.dependency.encoding`: compact encoded records fetched from the engine;
* :mod:`~anonsql.dependency.distance`: entropy penalty, value and tuple distances;
* :mod:`~anonsql.dependency.loss`: dependency loss, utility and NCP of a clustering (NumPy);
* :mod:`~anonsql.dependency.release_loss`: dependency loss of a published release (SQL);
* :mod:`~anonsql.dependency.pair_enum`, :mod:`~anonsql.dependency.k_assemble`: the thesis's
  algorithms; :mod:`~anonsql.dependency.k_member`, :mod:`~anonsql.dependency.top_down`: its
  baselines (Byun et al. 2007; Xu et al. 2006);
* :mod:`~anonsql.dependency.release`: decisions back into the engine.
"""

from anonsql.dependency.encoding import EncodedRecords, Quasi, encode_table, fetch_records
from anonsql.dependency.fds import (
    FdCheck,
    FunctionalDependency,
    check_fds,
    create_instances,
    instance_counts,
    parse_fd,
    parse_fds,
    require_fds,
)
from anonsql.dependency.k_assemble import k_assemble
from anonsql.dependency.k_member import k_member
from anonsql.dependency.loss import DependencyLoss, dependency_loss, ncp, utility
from anonsql.dependency.pair_enum import pair_enum
from anonsql.dependency.release import assign_rows, decision_table, write_release
from anonsql.dependency.release_loss import node_entropies, release_loss, value_distances
from anonsql.dependency.result import ClusteringResult
from anonsql.dependency.top_down import top_down

ALGORITHMS = {
    "pair_enum": pair_enum,
    "k_assemble": k_assemble,
    "k_member": k_member,
    "top_down": top_down,
}

__all__ = [
    "ALGORITHMS",
    "ClusteringResult",
    "DependencyLoss",
    "EncodedRecords",
    "FdCheck",
    "FunctionalDependency",
    "Quasi",
    "assign_rows",
    "check_fds",
    "create_instances",
    "decision_table",
    "dependency_loss",
    "encode_table",
    "fetch_records",
    "instance_counts",
    "k_assemble",
    "k_member",
    "ncp",
    "node_entropies",
    "pair_enum",
    "parse_fd",
    "parse_fds",
    "release_loss",
    "require_fds",
    "top_down",
    "utility",
    "value_distances",
    "write_release",
]
