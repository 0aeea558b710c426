"""The anonymization spec: YAML or Python, validated before any work."""

from anonsql.spec.load import load_spec, spec_from_mapping
from anonsql.spec.model import ColumnSpec, OutputSpec, Role, Spec

__all__ = ["ColumnSpec", "OutputSpec", "Role", "Spec", "load_spec", "spec_from_mapping"]
