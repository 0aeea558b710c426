"""Mondrian (LeFevre et al., ICDE 2006) run from aggregate SQL rounds: the algorithm, its
candidate splits and their vectorized evaluation against the privacy models."""

from anonsql.algorithms.mondrian.algorithm import Mondrian, MondrianOptions

__all__ = ["Mondrian", "MondrianOptions"]
