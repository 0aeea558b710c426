"""Generalization hierarchies: the model, files, builders, their tables in the engine, and the
step that loads a spec's hierarchies."""

from anonsql.hierarchies.builders import BUILDERS, HierarchyBuilder, build_hierarchy
from anonsql.hierarchies.io import read_hierarchy, write_arx_csv
from anonsql.hierarchies.load import Hierarchies, load_hierarchies, load_hierarchy
from anonsql.hierarchies.model import Hierarchy, Node
from anonsql.hierarchies.tables import materialize, read_hierarchy_table, uncovered, uncovered_rows

__all__ = [
    "BUILDERS",
    "Hierarchies",
    "Hierarchy",
    "HierarchyBuilder",
    "Node",
    "build_hierarchy",
    "load_hierarchies",
    "load_hierarchy",
    "materialize",
    "read_hierarchy",
    "read_hierarchy_table",
    "uncovered",
    "uncovered_rows",
    "write_arx_csv",
]
