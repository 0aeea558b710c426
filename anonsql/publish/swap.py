"""How a release replaces the previous one, chosen by what the engine declares.

* :class:`TransactionalSwap` (``transactional_ddl``): one transaction drops the previous
  release, creates the new relations under their final names, verifies, measures, certifies,
  grants and commits; any failure or interruption rolls everything back.
* :class:`VersionedSwap` (engines without transactional DDL): the release is built under
  versioned names (``<name>__v<run id>``) and verified there; only then is every final name
  repointed at its version with ``CREATE OR REPLACE VIEW`` (atomic per name), and older versions
  are dropped. A failed run drops its versions and leaves the previous release untouched.

Both refuse to replace a relation that anonsql did not publish.
"""

from __future__ import annotations

import contextlib
import re
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence

from anonsql.engines import Engine
from anonsql.errors import SpecError
from anonsql.release.reader import is_published
from anonsql.spec.output import COMPANIONS, PRIVATE, OutputNames
from anonsql.sql import TableName


class Swap(ABC):
    """Builds a release where it can be verified, then makes it the published one."""

    def __init__(
        self,
        engine: Engine,
        names: OutputNames,
        run_id: str,
        *,
        roles: Sequence[str] = (),
        granted: Sequence[str] = (),
    ) -> None:
        self.engine = engine
        self.names = names
        self.run_id = run_id
        self.roles = list(roles)
        self.granted = list(granted)

    @abstractmethod
    def open(self) -> contextlib.AbstractContextManager[OutputNames]:
        """A context yielding the names to build the release under; leaving it normally
        publishes the release, leaving it by an exception leaves the previous one intact."""

    def _guard(self) -> None:
        """Refuse to replace a relation that anonsql did not publish."""
        if self.engine.relation_kind(self.names.main) is not None and not is_published(
            self.engine, self.names
        ):
            raise SpecError(
                "output",
                f"{self.names.main} exists and was not published by anonsql (no certificate "
                "beside it)",
                "choose another output name, or drop it yourself",
            )
        assert self.names.main.schema is not None
        # created before the swap: two runs publishing into a new schema at once would otherwise
        # race on it (an empty schema is all a failed run can leave behind)
        self.engine.ensure_schema(self.names.main.schema)
        self.engine.ensure_schema(self.names.private)

    def _grant(self, names: OutputNames) -> None:
        assert names.main.schema is not None
        assert not set(self.granted) & set(PRIVATE), "companions holding original values"
        for role in self.roles:
            self.engine.run(
                "publish/grant",
                role=role,
                schema=names.main.schema,
                relations=[names.main, *(names.companion(k) for k in self.granted)],
            )


class TransactionalSwap(Swap):
    """Drop, build, verify, certify and grant in one transaction."""

    @contextlib.contextmanager
    def open(self) -> Iterator[OutputNames]:
        self._guard()
        with self.engine.transaction():
            self.engine.drop_existing(self.names.drop_order())
            yield self.names
            self._grant(self.names)


class VersionedSwap(Swap):
    """Build under versioned names, then repoint the final names with CREATE OR REPLACE VIEW."""

    @property
    def prefix(self) -> str:
        return f"{self.names.main.name}__v"

    @contextlib.contextmanager
    def open(self) -> Iterator[OutputNames]:
        self._guard()
        built = self.names.renamed(f"{self.prefix}{self.run_id}")
        try:
            yield built
        except BaseException:
            with contextlib.suppress(Exception):
                self._drop(built.drop_order())
            raise
        self._repoint(built)
        self._grant(self.names)
        self._drop(self._older_versions(built))

    def _repoint(self, built: OutputNames) -> None:
        e = self.engine
        pairs = [
            (built.main, self.names.main),
            *((built.companion(k), self.names.companion(k)) for k in COMPANIONS),
        ]
        kinds = e.relation_kinds([r for pair in pairs for r in pair])
        for source, target in pairs:
            if kinds[source] is None:
                if kinds[target] is not None:
                    # a companion the previous release had and this one lacks
                    e.drop(target, view=kinds[target] == "view")
                continue
            if kinds[target] == "table":
                e.drop(target)  # published by a transactional engine before
            e.run("publish/point_view", target=target, source=source)

    def _older_versions(self, built: OutputNames) -> list[TableName]:
        """Relations of earlier versions of this release, dependents first."""
        version = re.compile(re.escape(self.prefix) + r"([0-9a-f]{12})(__[a-z_]+)?")
        runs: set[str] = set()
        for schema in dict.fromkeys([self.names.main.schema, self.names.private]):
            assert schema is not None
            for name in self.engine.relations_starting_with(schema, self.prefix):
                match = version.fullmatch(name)
                if match and match.group(1) != self.run_id:
                    runs.add(match.group(1))
        return [
            relation
            for run in sorted(runs)
            for relation in self.names.renamed(f"{self.prefix}{run}").drop_order()
        ]

    def _drop(self, relations: Sequence[TableName]) -> None:
        """Drop what exists of ``relations``, views first (in the given order: dependents
        first), then tables."""
        self.engine.drop_existing(relations)


def swap_for(
    engine: Engine,
    names: OutputNames,
    run_id: str,
    *,
    roles: Sequence[str] = (),
    granted: Sequence[str] = (),
) -> Swap:
    """The swap strategy the engine's capabilities allow."""
    strategy = TransactionalSwap if engine.transactional_ddl else VersionedSwap
    return strategy(engine, names, run_id, roles=roles, granted=granted)
