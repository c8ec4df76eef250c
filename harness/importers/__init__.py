"""Datasets written for other tools, converted into skillscope's evals.json."""
