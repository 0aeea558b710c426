"""Fast 1D anonymization (Ghinita, Karras, Kalnis, Mamoulis, VLDB 2007): quasi-identifier vectors
mapped to one dimension in the engine (Hilbert curve, iDistance), then the optimal 1D partition
for k-anonymity or the linear l-diversity heuristic."""

from anonsql.algorithms.one_d.hilbert import Hilbert1D
from anonsql.algorithms.one_d.idistance import IDistance1D
from anonsql.algorithms.one_d.mapped import Mapped1D

__all__ = ["Hilbert1D", "IDistance1D", "Mapped1D"]
