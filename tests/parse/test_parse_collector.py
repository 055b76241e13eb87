"""Extraction pauses Python's cyclic garbage collector and must leave it as it found it, from one thread or several
(real extraction of the small kernel sources in tests/parse/fixtures.py)."""

from __future__ import annotations

import gc
import importlib.util
import threading
from pathlib import Path

from cotbuilder.parse import extract_units
from cotbuilder.parse import facts as parsed_facts

_spec = importlib.util.spec_from_file_location("parse_test_fixtures", Path(__file__).parent / "fixtures.py")
fx = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fx)


def _extract() -> list[dict]:
    parsed_facts._CACHE.clear()  # parse for real
    units, _ = extract_units("a" * 64, fx.kernel_launch_files())
    return units


def test_the_collector_is_on_after_an_extraction_and_off_during_it():
    seen: list[bool] = []
    real = parsed_facts.extract_facts

    def spy(data: bytes):
        seen.append(gc.isenabled())
        return real(data)

    assert gc.isenabled()
    parsed_facts.extract_facts = spy
    try:
        assert [u["name"] for u in _extract()] == ["scale_relu"]
    finally:
        parsed_facts.extract_facts = real
    assert seen and not any(seen)
    assert gc.isenabled()


def test_an_application_that_turned_the_collector_off_keeps_it_off():
    gc.disable()
    try:
        assert _extract()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_extractions_in_several_threads_leave_the_collector_on():
    errors: list[BaseException] = []

    def work():
        try:
            for _ in range(3):
                units, _ = extract_units("a" * 64, fx.kernel_launch_files())
                assert units
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert gc.isenabled()
