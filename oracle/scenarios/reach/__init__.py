"""Reaching a scenario's ``[given]`` position by playing (issue 39): the preamble format, verifier and finder."""
