"""Stage 5, gating: compare two finished runs case by case and gate a driver release on the changes."""
