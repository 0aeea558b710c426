# Fresh-machine entry points (see README.md). Each target sets up what it needs.
PYTHON ?= python3
VENV := .venv
PYCANON_VENV := .venv-pycanon

.PHONY: demo test test-spark test-spark-all test-newest lint bench setup

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[test,dbt]'
	@# an editable install is not byte-compiled by pip; compiled here, a process starts ~0.15 s
	@# sooner where PYTHONDONTWRITEBYTECODE keeps Python from caching it
	$(VENV)/bin/python -m compileall -q anonsql
	touch $@

# engine: spark, its optional extra (pyspark, ~500 MB; the tests also need Java 17+), and
# dbt-spark for the dbt package's privacy tests on Spark
$(VENV)/.spark-installed: $(VENV)/.installed
	$(VENV)/bin/pip install -q -e '.[test,spark,dbt-spark]'
	touch $@

# pycanon pins exact numpy/pandas/typing_extensions versions, so it lives in its own venv
$(PYCANON_VENV)/.installed:
	$(PYTHON) -m venv $(PYCANON_VENV)
	$(PYCANON_VENV)/bin/pip install -q 'pycanon>=1.3' pyarrow
	touch $@

setup: $(VENV)/.installed

demo: $(VENV)/.installed
	$(VENV)/bin/anonsql demo --database anonsql_demo.duckdb

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check anonsql tests bench
	$(VENV)/bin/mypy

test: $(VENV)/.installed $(PYCANON_VENV)/.installed lint
	ANONSQL_REQUIRE_DBT=1 $(VENV)/bin/python -m pytest -q -n 2 --durations=30
	$(MAKE) test-spark

# Spark in `make test` (CI): the engine's own tests (Adult identical to DuckDB's, the versioned
# swap, the dialect corrections) and the model and metric conformance suites on one local[2] Spark
# per test worker, selected by the engine's marker (`-m spark` also opts in to Spark, see
# tests/conftest.py); `make test-spark-all` adds every algorithm x model release and compares
# every algorithm's release with DuckDB's (16 minutes on 2 cores, measured). tests/engines holds
# the topologies started on 127.0.0.1: the spark-submit recipe on a standalone cluster (a master
# and two workers) and the CLI on local[1]; then a selection of the model conformance suite and
# the DuckDB comparison run again through a Spark Connect server the session starts (sc://)
SPARK_TESTS = $(VENV)/bin/python -m pytest -q -n 2 --durations=15 -m spark
SPARK_CONNECT_SELECTION = spark-k_anonymity] or test_same_release_as_duckdb
test-spark: $(VENV)/.spark-installed
	$(SPARK_TESTS) tests/engines tests/conformance/test_model_conformance.py \
		tests/conformance/test_metric_conformance.py tests/algorithms/mondrian/test_in_memory.py \
		tests/algorithms/one_d/test_hilbert.py tests/metrics/test_class_table_measures.py \
		tests/dbt/test_privacy_tests.py tests/pipeline/test_counted_rows.py
	ANONSQL_SPARK_TOPOLOGY=connect $(VENV)/bin/python -m pytest -q -p no:xdist --durations=10 \
		-m spark tests/conformance/test_model_conformance.py tests/engines/test_spark.py \
		-k "$(SPARK_CONNECT_SELECTION)"

# the session's engines are DuckDB and Spark only: the every-engine release compares those two
test-spark-all: $(VENV)/.spark-installed
	ANONSQL_TEST_ENGINES=duckdb,spark $(SPARK_TESTS) tests/conformance tests/engines

# the suite on the newest releases of every dependency, upper bounds lifted (a scheduled CI job,
# not part of `make test`): prints the libraries whose newest release is beyond a bound
test-newest: $(PYCANON_VENV)/.installed
	$(PYTHON) .ci/newest.py

bench: $(VENV)/.installed
	$(VENV)/bin/python bench/run.py
