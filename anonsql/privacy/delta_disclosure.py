"""delta-disclosure privacy (Brickell & Shmatikov, "The Cost of Privacy: Destruction of
Data-Mining Utility in Anonymized Data Publishing", KDD 2008).

For every class and every sensitive value in it, ``|log2(p(value | class) / p(value))| < delta``:
seeing a person's class neither raises nor lowers the odds of any of its values by a factor of
``2^delta`` or more. As in ARX (``DDisclosurePrivacy``), the values absent from a class are not
compared (their ratio would be 0), and ``p(value)`` is the value's share of the checked relation.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pydantic import Field

from anonsql.arrays import BoolArray
from anonsql.errors import SpecError
from anonsql.privacy import histograms as hist
from anonsql.privacy.base import EPSILON, PartStats
from anonsql.privacy.sensitive import SensitiveModel, SensitiveParams


class DeltaDisclosureParams(SensitiveParams):
    delta: float = Field(allow_inf_nan=False, description="bound on |log2 of a share ratio|")


class DeltaDisclosurePrivacy(SensitiveModel[DeltaDisclosureParams]):
    """delta-disclosure privacy: every value of a class has ``|log2(p_class / p_table)| <
    delta`` (a ratio at the bound, within :data:`EPSILON`, violates it).

    Not monotonic: merging a class into a larger one dilutes its values, whose ratios can fall
    below ``2^-delta`` (ARX declares it so too). The table's distribution is the published
    relation's, which suppression would change: no suppression.
    """

    name = "delta_disclosure_privacy"
    monotonic = False
    supports_suppression = False
    # p_table is the whole relation's distribution: withholding a class moves it
    guard = "table"
    reference = (
        "J. Brickell, V. Shmatikov, The Cost of Privacy: Destruction of Data-Mining Utility in "
        "Anonymized Data Publishing, KDD 2008"
    )
    examples = ({"delta": 8.0}, {"delta": 1.5}, {"delta": 1.0})

    @property
    def delta(self) -> float:
        return self.params.delta

    def check_params(self, key: str) -> None:
        if not self.delta > 0:
            raise SpecError(
                f"{key}.delta", f"delta = {self.delta} is not positive", "use delta > 0"
            )

    def template_params(self) -> dict[str, Any]:
        return {"delta": self.delta}

    def holds(self, parts: PartStats) -> BoolArray:
        histogram = self.histogram(parts)
        shares, overall = hist.entry_shares(histogram, parts.global_counts[self.column])
        ratio = np.abs(np.log(shares / overall) / np.log(2.0))
        worst = hist.max_per_row(histogram, ratio, 0.0)
        return worst < self.delta - EPSILON
