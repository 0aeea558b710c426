"""The personalized configuration is built from the options of ``algorithm: personalized``,
which validate every value: each error names the key, the problem and the fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from personalized_fixtures import (
    DISEASE,
    EDUCATION,
    JOB,
    QIDS,
    SALARY_PAPER,
    load_table_2,
    paper_config,
    safe_config,
)
from test_personalized_release import example_spec

from anonsql import api
from anonsql.algorithms.personalized.algorithm import (
    Personalized,
    PersonalizedOptions,
    build_config,
)
from anonsql.algorithms.personalized.config import (
    CategoricalSA,
    ClusterKey,
    NumericSA,
    PersonalizedConfig,
)
from anonsql.engines import DuckDBEngine
from anonsql.errors import SpecError
from anonsql.sql import TableName

KEY = "algorithm.personalized"
INCOME = ["Low", "Medium", "High"]
#: The paper's example (personalized_fixtures.paper_config) as options.
PAPER: dict[str, Any] = {
    "profile": "paper_compat",
    "consent": {"column": "pd", "values": [True]},
    "sensitive": {
        **{c: {"bucket_k": 3} for c in ("education", "job", "disease")},
        "salary": {
            "terms": {
                "labels": INCOME,
                "points": [50000, 150000, 250000, 300000],
                "rule": "paper_intervals",
            },
            "bucket_k": 5,
        },
        "bonus": {
            "terms": {
                "labels": INCOME,
                "points": [5000, 15000, 25000, 30000],
                "rule": "paper_intervals",
            },
            "bucket_k": 5,
        },
        "loan": {
            "terms": {
                "labels": INCOME,
                "points": [60000, 180000, 300000, 360000],
                "rule": "paper_intervals",
            },
            "bucket_k": 5,
        },
    },
    "cluster_key": [{"column": "zipcode", "prefix": 1}],
}


def options_error(options: dict[str, Any]) -> SpecError:
    with pytest.raises(SpecError) as info:
        Personalized.from_spec(options)
    return info.value


@pytest.mark.parametrize(
    ("change", "key", "problem"),
    [
        ({"profile": "strict"}, "profile", "'paper_compat'"),
        ({"l": True}, "l", "integer"),
        ({"l": 0}, "l", ">= 1"),
        ({"bucket_k": 0}, "bucket_k", ">= 1"),
        ({"sensitivity_threshold": 0}, "sensitivity_threshold", ">= 1"),
        ({"weight_step": 1.5}, "weight_step", "<= 1"),
        ({"weight_step": float("nan")}, "weight_step", "<= 1"),
        ({"consent": {"column": "pd", "values": []}}, "consent.values", "at least 1"),
        ({"consent": {"column": "", "values": [True]}}, "consent.column", "at least 1"),
        ({"cluster_key": [{"column": "zipcode", "prefix": 0}]}, "cluster_key.0.prefix", ">= 1"),
        ({"sensitive": {"job": {"l": 0}}}, "sensitive.job.l", ">= 1"),
        ({"sensitive": {"job": {"bucket_k": 0}}}, "sensitive.job.bucket_k", ">= 1"),
    ],
)
def test_option_errors_name_key_and_problem(change: dict[str, Any], key: str, problem: str) -> None:
    error = options_error({**PAPER, **change})
    assert error.key == f"{KEY}.{key}"
    # pydantic's own wording of a range
    wording = {">= 1": "greater than or equal to 1", "<= 1": "less than or equal to 1"}
    assert wording.get(problem, problem) in error.problem


@pytest.mark.parametrize(
    ("terms", "field", "problem", "fix"),
    [
        ({"labels": ["Low"], "points": [1]}, "labels", "fewer than 2", "at least 2"),
        ({"labels": ["Low", ""], "points": [1, 2]}, "labels", "empty", "every term a label"),
        ({"labels": ["Low", "Low"], "points": [1, 2]}, "labels", "share a label", "distinct"),
        (
            {"labels": ["Low", "High"], "points": [1, 2, 3]},
            "points",
            "3 points for 2 terms under rule triangular",
            "give 2 points (one center per term)",
        ),
        (
            {"labels": ["Low", "High"], "points": [1, 2], "rule": "paper_intervals"},
            "points",
            "2 points for 2 terms under rule paper_intervals",
            "give 3 points (min, a_2..a_k, max)",
        ),
        ({"labels": ["Low", "High"], "points": [2, 1]}, "points", "increasing", "ascending"),
        ({"labels": ["Low", "High"], "points": [1, float("nan")]}, "points", "finite", "numbers"),
        ({"labels": ["Low", "High"], "points": [1, float("inf")]}, "points", "finite", "numbers"),
    ],
)
def test_fuzzy_terms_are_validated(
    terms: dict[str, Any], field: str, problem: str, fix: str
) -> None:
    error = options_error({**PAPER, "sensitive": {"salary": {"terms": terms}}})
    assert error.key == f"{KEY}.sensitive.salary.terms.{field}"
    assert problem in error.problem
    assert fix in error.fix


def test_fuzzy_terms_report_the_first_problem_in_field_order() -> None:
    # an unknown rule first (the points' count depends on it), then the labels, then the points
    crisp = {"labels": ["Low"], "points": [2, 1], "rule": "crisp"}
    error = options_error({**PAPER, "sensitive": {"salary": {"terms": crisp}}})
    assert error.key == f"{KEY}.sensitive.salary.terms.rule"
    assert "'triangular'" in error.problem
    one_label = {"labels": ["Low"], "points": [2, 1]}
    error = options_error({**PAPER, "sensitive": {"salary": {"terms": one_label}}})
    assert error.key == f"{KEY}.sensitive.salary.terms.labels"


def test_config_is_built_from_the_options() -> None:
    options = PersonalizedOptions.model_validate(PAPER)
    built = build_config(
        options,
        quasi_identifiers=QIDS,
        taxonomies={"education": EDUCATION, "job": JOB, "disease": DISEASE},
        numeric=("salary", "bonus", "loan"),
        k=2,
        seed=7,
    )
    assert built == paper_config()
    assert built.key == KEY
    secret = PersonalizedOptions.model_validate({**PAPER, "secret_shuffle": True})
    assert (
        build_config(
            secret, quasi_identifiers=QIDS, taxonomies={}, numeric=("salary",), k=2, seed=7
        ).seed
        is None
    )


def _rename_to_group_id(spec: dict[str, Any], engine: DuckDBEngine) -> None:
    engine.execute("CREATE VIEW main.renamed AS SELECT * RENAME (age AS group_id) FROM main.table2")
    spec["source"] = "main.renamed"
    spec["columns"]["group_id"] = spec["columns"].pop("age")


def _no_sensitive(spec: dict[str, Any], engine: DuckDBEngine) -> None:
    spec["columns"] = {
        name: column if column["role"] != "sensitive" else {"role": "identifier"}
        for name, column in spec["columns"].items()
    }
    spec["algorithm"]["personalized"]["sensitive"] = {}


@pytest.mark.parametrize(
    ("change", "key", "fix"),
    [(_rename_to_group_id, "columns.group_id", "view"), (_no_sensitive, "columns", "sensitive")],
)
def test_spec_checks_what_options_cannot(tmp_path: Path, change: Any, key: str, fix: str) -> None:
    """What needs the spec (the columns' names and roles) is checked when the algorithm is
    bound to it, before any work."""
    spec = example_spec(tmp_path, "safe")
    with DuckDBEngine() as engine:
        load_table_2(engine)
        change(spec, engine)
        with pytest.raises(SpecError) as info:
            api.run(spec, engine=engine)
        assert not engine.exists(TableName("ex", "anon"))
    assert info.value.key == key
    assert fix in info.value.fix


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
