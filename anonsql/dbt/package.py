"""Where anonsql's dbt package is: inside the installed wheel (``anonsql/_resources/dbt``) or
in a source checkout (``integrations/dbt``). ``python -m anonsql.dbt.package`` prints the
directory, for a ``packages.yml`` entry (docs/dbt.md):

.. code-block:: yaml

    packages:
      - local: /path/printed/by/python -m anonsql.dbt.package
"""

from __future__ import annotations

from pathlib import Path

from anonsql.resources import resource_dir

#: The dbt package's name (``name:`` of its dbt_project.yml).
PACKAGE_NAME = "anonsql_dbt"


def package_dir() -> Path:
    """The directory of the dbt package ``anonsql_dbt`` this anonsql ships."""
    return resource_dir("dbt") / PACKAGE_NAME


def main() -> int:
    print(package_dir())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
