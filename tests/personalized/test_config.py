"""Validation of the personalized configuration: every error names the key and the fix."""

from __future__ import annotations

from typing import Any

import pytest
from personalized_fixtures import JOB, SALARY_PAPER, paper_config, safe_config

from anonsql.algorithms.personalized.config import (
    CategoricalSA,
    ClusterKey,
    FuzzyTerms,
    NumericSA,
    PersonalizedConfig,
)
from anonsql.errors import SpecError


@pytest.mark.parametrize(
    ("overrides", "key", "fix"),
    [
        ({"profile": "strict"}, "personalized.profile", "paper_compat, safe"),
        ({"k": 0}, "personalized.k", ">= 1"),
        ({"l": True}, "personalized.l", "integer"),
        ({"bucket_k": 0}, "personalized.bucket_k", ">= 1"),
        ({"sensitivity_threshold": 0}, "personalized.sensitivity_threshold", ">= 1"),
        ({"weight_step": 1.5}, "personalized.weight_step", "0.25"),
        ({"quasi_identifiers": ()}, "personalized.quasi_identifiers", "at least one"),
        ({"categorical": (), "numeric": ()}, "personalized.sensitive", "at least one"),
        ({"consent_values": ()}, "personalized.consent_values", "mean consent"),
        ({"consent_column": "age"}, "personalized.consent_column", "one role"),
        ({"quasi_identifiers": ("group_id",)}, "personalized.quasi_identifiers", "view"),
        (
            {"cluster_key": (ClusterKey("salary"),)},
            "personalized.cluster_key[0].column",
            "quasi-identifiers",
        ),
        (
            {"cluster_key": (ClusterKey("zipcode", 0),)},
            "personalized.cluster_key[0].prefix",
            ">= 1",
        ),
        (
            {"categorical": (CategoricalSA("job", JOB, l=0),)},
            "personalized.categorical[0].l",
            ">= 1",
        ),
        (
            {"numeric": (NumericSA("salary", SALARY_PAPER, bucket_k=0),)},
            "personalized.numeric[0].bucket_k",
            ">= 1",
        ),
        (
            {"categorical": (CategoricalSA("job", "job.csv"),)},  # type: ignore[arg-type]
            "personalized.categorical[0].taxonomy",
            "hierarchy",
        ),
    ],
)
def test_errors_name_key_and_fix(overrides: dict[str, Any], key: str, fix: str) -> None:
    with pytest.raises(SpecError) as info:
        paper_config(**overrides)
    assert info.value.key == key
    assert fix in info.value.fix


@pytest.mark.parametrize(
    ("terms", "field", "fix"),
    [
        (FuzzyTerms(("Low",), (1.0,)), "labels", "at least 2"),
        (FuzzyTerms(("Low", "Low"), (1.0, 2.0)), "labels", "distinct"),
        (FuzzyTerms(("Low", "High"), (1.0, 2.0, 3.0)), "points", "2 points"),
        (FuzzyTerms(("Low", "High"), (1.0, 2.0), "paper_intervals"), "points", "3 points"),
        (FuzzyTerms(("Low", "High"), (2.0, 1.0)), "points", "ascending"),
        (FuzzyTerms(("Low", "High"), (1.0, float("nan"))), "points", "numbers"),
        (FuzzyTerms(("Low", "High"), (1.0, 2.0), "crisp"), "rule", "triangular"),  # type: ignore[arg-type]
    ],
)
def test_fuzzy_terms_are_validated(terms: FuzzyTerms, field: str, fix: str) -> None:
    with pytest.raises(SpecError) as info:
        paper_config(numeric=(NumericSA("salary", terms),))
    assert info.value.key == f"personalized.numeric[0].terms.{field}"
    assert fix in info.value.fix


def test_two_roles_for_one_column() -> None:
    with pytest.raises(SpecError, match="declared twice"):
        paper_config(numeric=(NumericSA("age", SALARY_PAPER),))


def test_profile_defaults() -> None:
    safe = safe_config(categorical=(CategoricalSA("job", JOB, l=3),))
    assert safe.profile == "safe"
    assert (
        PersonalizedConfig(
            quasi_identifiers=("a",), consent_column="c", numeric=(NumericSA("x", SALARY_PAPER),)
        ).profile
        == "safe"
    )
    assert safe.l_of(0) == 3 and safe.l_of(1) == 2
    assert safe.bound(0) == pytest.approx(1 / 3)
    assert safe.bucket_k_of(0) == 3 and safe.bucket_k_of(1) == 2
    assert safe.published_weight_step == 0.25
    assert safe_config(weight_step=0.0).published_weight_step is None
    paper = paper_config(bucket_k=4)
    assert paper.published_weight_step is None
    assert paper.bucket_k_of(0) == 3  # the attribute's own bucket_k first
    assert paper_config(categorical=(CategoricalSA("job", JOB),)).bucket_k_of(0) == 2  # k
    assert paper.grouping_key == (ClusterKey("zipcode", 1),)
    assert safe_config(cluster_key=()).grouping_key == tuple(
        ClusterKey(q) for q in ("age", "gender", "zipcode")
    )
    assert paper.sensitive_columns == ("education", "job", "disease", "salary", "bonus", "loan")
