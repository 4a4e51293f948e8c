"""arena: a pluggable AI tournament framework for four dice board games."""

__version__ = "0.1.0"
