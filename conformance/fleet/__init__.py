"""Stage 5, fleet: merge the runs of many machines (product families x CANN versions) into one compatibility matrix."""
