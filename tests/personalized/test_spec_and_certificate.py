"""The mapping form of the configuration (what a spec section holds) and the certificate."""

from __future__ import annotations

import json
from typing import Any

import pytest
from personalized_config import config_from_mapping
from personalized_fixtures import JOB, load_table_2, publish, safe_config

from anonsql.algorithms.personalized.config import CategoricalSA, ClusterKey, FuzzyTerms, NumericSA
from anonsql.engines import Engine
from anonsql.errors import SpecError

SECTION: dict[str, Any] = {
    "profile": "paper_compat",
    "consent": {"column": "pd", "values": ["T"]},
    "sensitive": {
        "job": {"l": 3},
        "salary": {
            "terms": {"labels": ["Low", "High"], "points": [0, 10, 20], "rule": "paper_intervals"},
            "bucket_k": 5,
        },
    },
    "cluster_key": [{"column": "zipcode", "prefix": 1}],
    "quasi_identifiers": ["age", "zipcode"],
    "k": 2,
}


def test_mapping_builds_the_config() -> None:
    config = config_from_mapping(SECTION, taxonomies={"job": JOB})
    assert config.profile == "paper_compat" and config.k == 2 and config.l == 2
    assert config.quasi_identifiers == ("age", "zipcode")
    assert config.consent_column == "pd" and config.consent_values == ("T",)
    assert config.categorical == (CategoricalSA("job", JOB, 3),)
    assert config.numeric == (
        NumericSA("salary", FuzzyTerms(("Low", "High"), (0, 10, 20), "paper_intervals"), None, 5),
    )
    assert config.cluster_key == (ClusterKey("zipcode", 1),)
    assert config.seed == 0 and config.key == "personalized"


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"colour": 1}, "personalized.colour"),
        ({"sensitive": {"disease": {}}}, "personalized.sensitive.disease"),
        ({"sensitive": "job"}, "personalized.sensitive"),
        ({"sensitive": {"salary": {"terms": [1]}}}, "personalized.sensitive.salary.terms"),
        (
            {"sensitive": {"salary": {"terms": {"labels": ["a", "a"], "points": [0, 1]}}}},
            "personalized.sensitive.salary.terms.labels",
        ),
        (
            {"cluster_key": [{"column": "zipcode", "digits": 1}]},
            "personalized.cluster_key.0.digits",
        ),
        ({"quasi_identifiers": "age"}, "personalized.quasi_identifiers"),
        ({"seed": "x"}, "personalized.seed"),
        ({"k": 0}, "personalized.k"),
        ({"consent": {"values": [True]}}, "personalized.consent.column"),
    ],
)
def test_mapping_errors_name_the_key(change: dict[str, Any], key: str) -> None:
    with pytest.raises(SpecError) as info:
        config_from_mapping({**SECTION, **change}, taxonomies={"job": JOB})
    assert info.value.key == key


def test_certificate(engine: Engine) -> None:
    load_table_2(engine)
    released = publish(engine, safe_config(categorical=(CategoricalSA("job", JOB),)))
    certificate = released.release.certificate()
    json.dumps(certificate)
    assert certificate["verified"] is True
    assert (certificate["source_rows"], certificate["published_rows"]) == (12, 10)
    assert certificate["withheld_rows"] == 2 and "consent" in certificate["absence_risk"]
    assert [a["bound"] for a in certificate["sensitive"]] == [0.5] * 4
    assert certificate["seeded"] is True and 7 not in certificate.values()
    assert set(certificate["checks"]) == {
        "group_size",
        "bucket_size",
        "group_diversity",
        "bucket_diversity",
    }
