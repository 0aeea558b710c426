"""Dependency-preserving generalization (Gorla, MSc thesis, McMaster, 2019): PAIR-ENUM,
k-ASSEMBLE and the baselines k-member and Top-down, over the workspace's encoded records."""

from anonsql.algorithms.dependency.algorithm import (
    DependencyClustering,
    KAssemble,
    KMember,
    PairEnum,
    TopDown,
)

__all__ = ["DependencyClustering", "KAssemble", "KMember", "PairEnum", "TopDown"]
