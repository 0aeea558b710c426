"""The NumPy array types of anonsql's annotations, defined once for every module.

Arrays of codes, counts and positions are ``int64`` throughout (the engines' BIGINT), shares and
distances ``float64``, masks ``bool``; an array of another dtype is annotated where it is made.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
import numpy.typing as npt

IntArray: TypeAlias = npt.NDArray[np.int64]
FloatArray: TypeAlias = npt.NDArray[np.float64]
BoolArray: TypeAlias = npt.NDArray[np.bool_]

__all__ = ["BoolArray", "FloatArray", "IntArray"]
