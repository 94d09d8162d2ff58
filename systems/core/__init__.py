"""Shared rules machinery: dice, notation, outcomes, odds. Pure Python, no Django."""
