"""Export files: where they wait (files.py) and how each format is written (renderer.py)."""
