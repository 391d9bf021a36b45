"""Build hook: the repository's scenarios/ travel inside the wheel as the package data ``oracle/_suite``."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


class BuildPyWithSuite(build_py):
    """Copy every scenario file and every folder's preambles into the built package, so a wheel runs the same suite
    as a clone."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "oracle" / "_suite"
        if target.exists():
            shutil.rmtree(target)
        for source in sorted([*SCENARIOS.rglob("*.toml"), *SCENARIOS.rglob("preambles.json")]):
            destination = target / source.relative_to(SCENARIOS)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, destination)


setup(cmdclass={"build_py": BuildPyWithSuite})
