"""Tests that run the platforms' own importers on the exports."""
