"""Readers: from a file format to the one quiz model. `canonical` reads our JSON content."""
