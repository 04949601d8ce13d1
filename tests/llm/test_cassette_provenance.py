"""Every cassette says where its replies came from, and the recorder writes it.

The fields are listed in tests/support/provenance.py (model, weights sha256, prompt hash,
date, command, and whether the embedded model or the rule-based stand-in answered).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from agent.llm.replay import Cassette
from tests.support import provenance, record_cassettes

CASSETTES = Path(__file__).parents[1] / "cassettes"


@pytest.mark.parametrize("path", sorted(CASSETTES.glob("*.json")), ids=lambda p: p.name)
def test_every_cassette_carries_its_provenance(path: Path) -> None:
    assert provenance.problems(Cassette.load(path)) == []


def test_a_cassette_without_provenance_is_caught(tmp_path: Path) -> None:
    data = json.loads((CASSETTES / "baml_tests.json").read_text(encoding="utf-8"))
    data.pop("provenance")
    data["entries"][0].pop("provenance")
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(data), encoding="utf-8")
    found = provenance.problems(Cassette.load(bare))
    assert len(found) == len(data["entries"])  # the shared fields are gone from every entry
    assert "prompt_sha256" in found[0] and "replies_from" in found[0]


def test_provenance_survives_a_load_and_save(tmp_path: Path) -> None:
    copy = tmp_path / "c.json"
    shutil.copy(CASSETTES / "baml_tests.json", copy)
    cassette = Cassette.load(copy)
    cassette.add({"messages": [{"role": "user", "content": "new"}]}, "reply")
    cassette.save()
    again = Cassette.load(copy)
    assert again.provenance == Cassette.load(CASSETTES / "baml_tests.json").provenance
    sources = [e.provenance and e.provenance["replies_from"] for e in again.entries]
    assert sources.count(None) == 1  # the new recording has no source until it is labelled


@pytest.mark.timeout(300)
def test_the_recorder_writes_provenance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--from stand-in` needs no model: every entry is labelled as the stand-in's."""
    monkeypatch.setattr(record_cassettes, "REFERENCE", tmp_path / "reference_session.json")
    monkeypatch.setattr(record_cassettes, "BAML_TESTS", tmp_path / "baml_tests.json")
    assert record_cassettes.main(["--from", "stand-in"]) == 0
    for name in ("reference_session.json", "baml_tests.json"):
        cassette = Cassette.load(tmp_path / name)
        assert provenance.problems(cassette) == [], name
        assert cassette.provenance["prompt_sha256"] == provenance.prompt_sha256()
        assert cassette.provenance["command"].endswith("record_cassettes --from stand-in")
        assert {e.provenance["replies_from"] for e in cassette.entries} == {provenance.STAND_IN}
