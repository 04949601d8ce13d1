"""Where a cassette's replies came from: written by the recorder, required by the tests.

A cassette in tests/cassettes/ carries a `provenance` object (what every entry shares: the
prompt hash, the date, the command) and each entry one of its own (what answered it: the
embedded model or the rule-based stand-in, the model's name, its weights' sha256). An
entry's provenance is the two merged, and must hold every field of `REQUIRED`.

- `prompt_sha256`: sha256 of the BAML sources (`baml_src/*.baml`: each file's path, a NUL,
  its bytes, a NUL, in path order). `baml_client/` is generated from them (CI checks it), so
  this names the prompts the requests were rendered from.
- `weights_sha256`: the embedded model's GGUF file as `agent/llm/local/settings.py` records
  it (the server refuses any other file); null for the stand-in, which has no weights.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from agent.llm.local.settings import LOCAL_MODEL
from agent.llm.replay import Cassette

ROOT = Path(__file__).parents[2]
BAML_SRC = ROOT / "baml_src"

REQUIRED = ("replies_from", "model", "weights_sha256", "prompt_sha256", "recorded", "command")
EMBEDDED_MODEL = "embedded model"
STAND_IN = "rule-based stand-in"
SOURCES = {
    EMBEDDED_MODEL: {
        "replies_from": EMBEDDED_MODEL,
        "model": LOCAL_MODEL.name,
        "weights_sha256": LOCAL_MODEL.sha256,
    },
    STAND_IN: {
        "replies_from": STAND_IN,
        "model": "tests/support/reference_llm.py (always right; no weights)",
        "weights_sha256": None,
    },
}
_SHA256 = re.compile(r"[0-9a-f]{64}")


def prompt_sha256(baml_src: Path = BAML_SRC) -> str:
    digest = hashlib.sha256()
    for path in sorted(baml_src.rglob("*.baml")):
        digest.update(path.relative_to(baml_src).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def entry_provenance(cassette: Cassette, key: str) -> dict[str, Any]:
    entry = next(e for e in cassette.entries if e.key == key)
    return {**(cassette.provenance or {}), **(entry.provenance or {})}


def problems(cassette: Cassette) -> list[str]:
    """What is missing or malformed in each entry's provenance (empty: all there)."""
    found = []
    if not cassette.entries:
        found.append("no entries")
    for entry in cassette.entries:
        have = entry_provenance(cassette, entry.key)
        where = f"entry {entry.key[:12]}"
        missing = [name for name in REQUIRED if name not in have]
        if missing:
            found.append(f"{where}: no {', '.join(missing)}")
            continue
        source = SOURCES.get(have["replies_from"])
        if source is None:
            found.append(
                f"{where}: replies_from {have['replies_from']!r} is not one of {list(SOURCES)}"
            )
        elif have["replies_from"] == EMBEDDED_MODEL and not _SHA256.fullmatch(
            str(have["weights_sha256"])
        ):
            found.append(f"{where}: weights_sha256 {have['weights_sha256']!r} is not a sha256")
        if not _SHA256.fullmatch(str(have["prompt_sha256"])):
            found.append(f"{where}: prompt_sha256 {have['prompt_sha256']!r} is not a sha256")
        if not str(have["command"]).strip() or not str(have["recorded"]).strip():
            found.append(f"{where}: empty command or date")
    return found


def label(
    path: Path,
    shared: dict[str, Any],
    sources: dict[str, str],
    default_source: str | None = None,
) -> None:
    """Write `shared` as the cassette's provenance and each entry's source (`sources`: key ->
    EMBEDDED_MODEL or STAND_IN; entries not listed get `default_source`, or keep theirs)."""
    cassette = Cassette.load(path)
    cassette.provenance = shared
    for entry in cassette.entries:
        source = sources.get(entry.key, default_source)
        if source is not None:
            entry.provenance = dict(SOURCES[source])
    cassette.save()
