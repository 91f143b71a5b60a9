"""Stage 6, self-test: run the suite against the faithful simulator and under every fault switch.

It proves the suite's strength: no false alarm on the faithful simulator, every fault caught
by a case of a rule it breaks (the mutation score).
"""
