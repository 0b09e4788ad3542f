"""`make bench`'s table: its modules found through the games' manifests, in the order the
README's table has always had, and BENCH_MODULES choosing part of it."""

from __future__ import annotations

import importlib

import pytest

from bench.__main__ import SELECTED, modules, selected

TABLE = ["games.revenge.bench.core", "games.board.bench.core", "games.revenge.bench.ui",
         "games.board.bench.ui", "games.revenge.bench.hardware", "bench.camera",
         "bench.camera_table", "games.board.camera.bench"]  # the README's order


def test_the_tables_modules_come_from_the_shared_stages_and_each_games_manifest():
    assert modules() == TABLE
    for name in TABLE:
        module = importlib.import_module(name)
        assert callable(module.rows) and callable(module.child), name


def test_bench_modules_runs_those_named_in_the_tables_order():
    assert selected(TABLE, None) == selected(TABLE, " ") == TABLE
    assert selected(TABLE, "bench.camera, games.revenge.bench.core") == [
        "games.revenge.bench.core", "bench.camera"]
    with pytest.raises(SystemExit, match=rf"^{SELECTED} names bench.board, not a benchmark "
                                         r"module: the modules are games\.revenge\.bench"):
        selected(TABLE, "bench.board,bench.camera")


def test_a_game_without_benchmarks_adds_no_module_and_one_with_adds_its_own(
        count_game, register_count, tmp_path, monkeypatch):
    assert modules() == TABLE  # the count game, registered, has no benchmarks
    (tmp_path / "count_bench.py").write_text(
        'MODULES = {"hardware": "count_bench_hardware", "camera": "count_bench_camera"}\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    register_count(bench="count_bench")
    assert modules() == [*TABLE[:5], "count_bench_hardware", *TABLE[5:], "count_bench_camera"]
