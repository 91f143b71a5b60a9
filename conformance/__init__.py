"""ACL host-memory conformance harness: pytest plugin, checks, reports, self-test, certification."""
