"""Rendering output files and writing them to disk."""
