"""Generalization hierarchies: the model, files, builders and their tables in the engine."""

from anonsql.hierarchies.builders import BUILDERS, HierarchyBuilder, build_hierarchy
from anonsql.hierarchies.io import read_hierarchy, write_arx_csv
from anonsql.hierarchies.model import Hierarchy, Node
from anonsql.hierarchies.tables import materialize, read_hierarchy_table, uncovered

__all__ = [
    "BUILDERS",
    "Hierarchy",
    "HierarchyBuilder",
    "Node",
    "build_hierarchy",
    "materialize",
    "read_hierarchy",
    "read_hierarchy_table",
    "uncovered",
    "write_arx_csv",
]
