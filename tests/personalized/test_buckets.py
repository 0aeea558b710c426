"""Duplicate repair in buckets (digest 002 T9, paper §3.1 step 8(c)(ii)) and the bucket
invariants, on every engine."""

from __future__ import annotations

import pyarrow as pa
import pytest
from personalized_fixtures import DISEASE, EDUCATION, JOB, publish, published_frames

from anonsql.algorithms.personalized.buckets import bucket_counts
from anonsql.algorithms.personalized.config import CategoricalSA, PersonalizedConfig
from anonsql.engines import Engine
from anonsql.sql import TableName

SMALL = TableName("small", "main")


def one_bucket_config(**overrides: object) -> PersonalizedConfig:
    """Four rows, one QID group and one bucket per attribute (bucket_k = 4)."""
    params: dict[str, object] = {
        "quasi_identifiers": ("age",),
        "consent_column": "pd",
        "categorical": (
            CategoricalSA("job", JOB),
            CategoricalSA("disease", DISEASE),
            CategoricalSA("education", EDUCATION),
            CategoricalSA("disease2", DISEASE),
        ),
        "profile": "paper_compat",
        "k": 1,
        "l": 1,
        "bucket_k": 4,
        "seed": 3,
    }
    params.update(overrides)
    return PersonalizedConfig(**params)  # type: ignore[arg-type]


def load_small(engine: Engine) -> None:
    engine.load_arrow(
        SMALL,
        pa.table(
            {
                "pd": [True] * 4,
                "age": [30, 31, 32, 33],
                "job": ["Tech support", "Adm-clerical", "Exec-managerial", "Exec-managerial"],
                "disease": ["Flu", "Typhoid", "HIV", "HIV"],
                "education": ["Masters", "Masters", "Masters", "Bachelors"],
                "disease2": ["HIV", "HIV", "HIV", "Flu"],
            }
        ),
    )


def test_t9_duplicates_climb_until_distinct(engine: Engine) -> None:
    load_small(engine)
    released = publish(engine, one_bucket_config(), source=SMALL)
    published = published_frames(engine, released)
    labels = {c: sorted(published[c]["value"]) for c in ("job", "disease", "education", "disease2")}
    assert labels["job"] == sorted(
        ["Tech support", "Adm-clerical", "Exec-managerial", "White-collar"]
    )
    assert labels["disease"] == sorted(["Flu", "Typhoid", "HIV", "Any Disease"])
    # three copies: one stays, the second takes the parent, the third the grandparent
    assert labels["education"] == sorted(["Masters", "Graduate", "Higher", "Bachelors"])
    # a root that repeats stays repeated (it reveals nothing) and is counted (digest G9)
    assert labels["disease2"] == sorted(["HIV", "Any Disease", "Any Disease", "Flu"])
    stats = {a.attribute: a for a in released.release.bucketing.attributes}
    assert stats["disease2"].root_repeats == 1
    assert stats["education"].generalized_cells == 2
    assert released.release.bucketing.rounds == 2
    assert released.release.violations["bucket_threshold"] == 0


def test_sensitivity_threshold_two_keeps_two_copies(engine: Engine) -> None:
    load_small(engine)
    released = publish(engine, one_bucket_config(sensitivity_threshold=2), source=SMALL)
    education = sorted(published_frames(engine, released)["education"]["value"])
    assert education == sorted(["Masters", "Masters", "Graduate", "Bachelors"])


def test_bucket_counts_follow_rule_b() -> None:
    config = one_bucket_config(bucket_k=3)
    assert bucket_counts(config, 10) == [3, 3, 3, 3]
    # the safe profile's default bucket size is the attribute's l
    safe = one_bucket_config(profile="safe", bucket_k=None, l=2)
    assert bucket_counts(safe, 11) == [5, 5, 5, 5]
    with pytest.raises(Exception, match="bucket_k"):
        bucket_counts(one_bucket_config(bucket_k=20), 10)
