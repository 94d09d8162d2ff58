"""Hand-written SQL for the few statements every table request runs (docs/performance.md).

Building and compiling an ORM query costs 0.3-1 ms of CPU on a small VM, more than the round
trip it pays for; a roll ran eight of them. The statements here are plain SQL written once per
model, and the rows are turned into ordinary model instances with the same converters the ORM
applies (JSON, dates), so callers cannot tell the difference. Everything else keeps the ORM.

Only for hot paths with simple shapes: a row by key, a row joined to one parent, an insert.
The SQL is built from model metadata only (table and column names, quoted); every value is a
query parameter, which is why the callers' f-strings carry ``noqa: S608``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connections, models

M = TypeVar("M", bound=models.Model)

DB = "default"


class Loader:
    """Columns of ``model`` under a table alias and how to turn them back into an instance."""

    def __init__(self, model: type[M], alias: str) -> None:
        connection = connections[DB]
        self.model = model
        fields = model._meta.concrete_fields
        self.attnames = [f.attname for f in fields]
        self.columns = ", ".join(f"{alias}.{connection.ops.quote_name(f.column)}" for f in fields)
        self.width = len(fields)
        self.pk_index = [f.attname for f in fields].index(model._meta.pk.attname)
        # Converters only read the backend's settings, the same from every thread: keep one
        # wrapper instead of looking it up (a thread-local read) for every row.
        self.connection = connection
        self.converters: list[tuple[int, list[Any], Any]] = []
        for i, field in enumerate(fields):
            col = field.get_col(alias)
            found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
            if found:
                self.converters.append((i, found, col))

    def load(self, row: Sequence[Any], start: int = 0) -> M:
        values = list(row[start : start + self.width])
        if self.converters:
            connection = self.connection
            for i, found, col in self.converters:
                value = values[i]
                for convert in found:
                    value = convert(value, col, connection)
                values[i] = value
        return self.model.from_db(DB, self.attnames, values)


@cache
def loader(model: type[models.Model], alias: str) -> Loader:
    return Loader(model, alias)


def load_optional(loader_: Loader, row: Sequence[Any], start: int) -> Any:
    """The instance from a LEFT JOIN's columns, or None where the join found no row."""
    if row[start + loader_.pk_index] is None:
        return None
    return loader_.load(row, start)


@cache
def table(model: type[models.Model]) -> str:
    return connections[DB].ops.quote_name(model._meta.db_table)


def fetch_one(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    with connections[DB].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def execute(sql: str, params: Sequence[Any]) -> int:
    """Run a statement; the number of rows it touched."""
    with connections[DB].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def for_update(of: str | None = None) -> str:
    """`` FOR UPDATE [OF alias]`` where the database has row locks (SQLite locks the whole
    file). ``of`` locks only that table's row of a join (PostgreSQL refuses to lock the
    nullable side of an outer join)."""
    features = connections[DB].features
    if not features.has_select_for_update:
        return ""
    return f" FOR UPDATE OF {of}" if of and features.has_select_for_update_of else " FOR UPDATE"


@cache
def _insert_sql(
    model: type[models.Model], with_pk: bool = False
) -> tuple[str, tuple[models.Field, ...], bool]:
    quote = connections[DB].ops.quote_name
    pk = model._meta.pk
    auto = isinstance(pk, models.AutoField)
    fields = tuple(f for f in model._meta.concrete_fields if with_pk or not (f is pk and auto))
    returning = quote(pk.column) if auto and not with_pk else None
    columns = ", ".join(quote(f.column) for f in fields)
    sql = f"INSERT INTO {table(model)} ({columns}) VALUES ({{values}})"  # noqa: S608
    if returning:
        sql += f" RETURNING {returning}"
    return sql, fields, returning is not None


Statement = tuple[str, Sequence[Any]]


def _base_type(db_type: str) -> str:
    return db_type.split("(")[0]


def insert_from(obj: models.Model, source: str, *, with_pk: bool = False) -> Statement:
    """``INSERT INTO <table> (...) SELECT <obj's values> FROM <source>`` (PostgreSQL): one row
    for each row ``source`` (a ``WITH`` query of the same statement) yields, so none when it
    yields none, and only after it ran. Each value is cast to its column's type, as a
    parameter in a SELECT list has none of its own."""
    connection = connections[DB]
    sql, fields = _insert_from_sql(type(obj), source, with_pk)
    params = [f.get_db_prep_save(f.pre_save(obj, add=True), connection) for f in fields]
    return sql, params


@cache
def _insert_from_sql(
    model: type[models.Model], source: str, with_pk: bool
) -> tuple[str, tuple[models.Field, ...]]:
    """Built once per model: the fast roll path writes with it on every roll."""
    connection = connections[DB]
    template, fields, _returns_pk = _insert_sql(model, with_pk)
    # the type without its length: a cast to varchar(n) would cut a long value silently, where
    # the column refuses it
    values = ", ".join(f"CAST(%s AS {_base_type(f.db_type(connection))})" for f in fields)
    sql = template.replace("VALUES ({values})", f"SELECT {values} FROM {source}")  # noqa: S608
    return sql, fields


def inserted(objs: Sequence[M], pks: Sequence[Any] | None) -> None:
    """Mark ``objs`` as saved, with the primary keys the INSERT returned (VALUES order)."""
    if pks is not None:
        for obj, pk in zip(objs, pks, strict=True):
            obj.pk = pk
    for obj in objs:
        obj._state.adding = False
        obj._state.db = DB


def insert(objs: Sequence[M], *, also: Statement | None = None) -> None:
    """INSERT the new instances in one statement, as ``save(force_insert=True)`` would (each
    field's ``pre_save``, so auto_now and defaults apply), and set their primary keys.

    ``also`` is an UPDATE or DELETE (sql, params) to run in the same round trip: on PostgreSQL
    as a data-modifying ``WITH`` of the INSERT (the log append updates its cursor so), elsewhere
    (SQLite has no UPDATE in ``WITH``) as a second statement after it."""
    if not objs:
        return
    model = type(objs[0])
    connection = connections[DB]
    template, fields, returns_pk = _insert_sql(model)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = template.replace("({values})", ", ".join([row] * len(objs)))
    params: list[Any] = []
    together = also is not None and connection.vendor == "postgresql"
    if together:
        sql = f"WITH also_ AS ({also[0]}) {sql}"
        params.extend(also[1])
    for obj in objs:
        for field in fields:
            value = field.pre_save(obj, add=True)
            params.append(field.get_db_prep_save(value, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        # PostgreSQL returns the rows in VALUES order (bulk_create relies on it)
        pks = [pk for (pk,) in cursor.fetchall()] if returns_pk else None
        if also is not None and not together:
            cursor.execute(*also)
    inserted(objs, pks)
