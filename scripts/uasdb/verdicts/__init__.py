"""Verdicts: the engine that turns reports into graded findings and verdicts (engine.py), and the labelled expectations built from related products (expectations.py)."""
