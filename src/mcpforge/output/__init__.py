"""Writing the generated project to disk: all of it or nothing, and checking it against what is there."""
