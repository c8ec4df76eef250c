"""skillscope: a test harness for Agent Skills."""

__version__ = "0.1.0"
