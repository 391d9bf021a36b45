"""Test-run settings shared by every test file."""

from __future__ import annotations

import os

# The dev dependencies bring trio (through selenium), which registers a Hypothesis plugin that imports trio and
# pytest into every process importing Hypothesis: about 0.4 s of CPU in each `oracle check` worker that fuzzes.
# Nothing here uses trio; the processes the tests start inherit this (HYPOTHESIS_NO_PLUGINS is Hypothesis's switch).
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")
