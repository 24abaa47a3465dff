"""The shape of src/ holds: no module imports itself back, every use case's annotations resolve,
each context's unit of work lists only what the context uses, and the import contracts of
pyproject.toml name the public modules each context declares."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import tomllib
import typing
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import grimp
import pytest

import core
from core.shared.transaction import Transaction

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("core", "adapters", "entrypoints")
# A development tool on its way out of src (issue 15); whatever it imports is not the product's.
OUTSIDE_THE_PRODUCT = ("adapters.payments.sandbox",)
# Every package of the core but shared is a context: a new one must declare its public modules
# and join the import contract before these tests pass.
CONTEXTS = sorted(info.name for info in pkgutil.iter_modules(core.__path__) if info.ispkg and info.name != "shared")


def _product_modules(graph: grimp.ImportGraph) -> set[str]:
    return {m for m in graph.modules if not m.startswith(OUTSIDE_THE_PRODUCT)}


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), and self-imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(edges[module]):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1 or module in edges[module]:
                found.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return found


def test_no_module_of_src_imports_itself_back_even_for_type_hints():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)  # TYPE_CHECKING imports included
    modules = _product_modules(graph)
    edges = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
    assert len(modules) > 100  # the graph is of the real src
    assert _cycles(edges) == []


def test_a_cycle_is_found_when_there_is_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"a"}}) == [["a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def _core_modules() -> Iterator[ModuleType]:
    for info in pkgutil.walk_packages(core.__path__, "core."):
        yield importlib.import_module(info.name)


def _use_cases() -> list[type]:
    """Every class of the core called as a function (`__call__`): the use cases, and the ports
    that stand for one."""
    return [cls for module in _core_modules() for _, cls in inspect.getmembers(module, inspect.isclass)
            if cls.__module__ == module.__name__ and "__call__" in vars(cls)]


def test_the_annotations_of_every_use_case_resolve():
    use_cases = _use_cases()
    names = {cls.__name__ for cls in use_cases}
    assert {"PlaceServiceOrder", "SettleOrder", "Login", "StoreReadings", "EvaluateAlarms"} <= names
    for cls in use_cases:
        for method in ("__init__", "__call__"):
            if method in vars(cls):
                typing.get_type_hints(getattr(cls, method))  # NameError when a name is only imported for mypy


def test_a_use_case_takes_its_context_s_unit_of_work():
    taking_one = 0
    for cls in _use_cases():
        if "__init__" not in vars(cls):
            continue
        uow = typing.get_type_hints(cls.__init__).get("uow")
        if uow is None:
            continue
        taking_one += 1
        context = cls.__module__.split(".")[1]
        assert Transaction in uow.__mro__ and uow.__module__ == f"core.{context}.ports", cls
    assert taking_one > 40


def _repositories_used(context: str) -> set[str]:
    """The attributes the context's modules read of a unit of work (`uow.orders`, `self._uow.bills`)."""
    used = set()
    for path in (ROOT / "src" / "core" / context).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Attribute):
                continue
            owner = node.value
            if (isinstance(owner, ast.Name) and owner.id == "uow") or (
                    isinstance(owner, ast.Attribute) and owner.attr == "_uow"):
                used.add(node.attr)
    return used - {"commit", "rollback"}


# Telemetry's batch is evaluated for alarms inside its own transaction (telemetry.ports.AlarmEvaluation);
# expiry reminders, paid orders, ended exports, invitations and signing locks are posted to the owner's
# inbox (core.inbox.posting.post).
USED_BY_A_PORT = {"telemetry": {"alarms", "outbox", "device_events", "fence_watch", "inbox"},
                  "devices": {"inbox", "outbox"}, "ordering": {"inbox", "outbox"}, "exports": {"inbox", "outbox"},
                  "organizations": {"inbox", "outbox"}, "vouchers": {"device_registry"},
                  "geofences": {"inbox", "outbox"}, "calibration": {"inbox", "outbox"}, "fda": {"inbox", "outbox"}}


@pytest.mark.parametrize("context", [c for c in CONTEXTS if _repositories_used(c)])
def test_a_context_s_unit_of_work_lists_only_the_repositories_the_context_uses(context):
    ports = importlib.import_module(f"core.{context}.ports")
    # a context may declare more than one (geofences: its own, and the one ingest's detection needs)
    uows = [cls for name, cls in vars(ports).items() if name.endswith("UnitOfWork") and isinstance(cls, type)]
    listed = {name for uow in uows for name, member in vars(uow).items() if isinstance(member, property)}
    assert listed == _repositories_used(context) | USED_BY_A_PORT.get(context, set())


def test_the_import_contract_names_exactly_the_modules_each_context_declares_public():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    [contract] = [c for c in config["contracts"] if c["type"] == "independence"]
    assert sorted(contract["modules"]) == [f"core.{c}" for c in CONTEXTS]
    ignored = {line.split(" -> ")[1] for line in contract["ignore_imports"]}
    declared = {f"core.{c}.{m}" for c in CONTEXTS for m in importlib.import_module(f"core.{c}").__all__}
    assert ignored == declared
    assert {line.split(" -> ")[0] for line in contract["ignore_imports"]} == {"core.**"}
