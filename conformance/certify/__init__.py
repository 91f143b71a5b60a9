"""Stage 5, certification: run the full suite into a bundle, issue a verdict, and verify bundles.

The verdict, the manifest, the certificate (Markdown and HTML), SHA256SUMS, and ``verify``,
which recomputes what a bundle claims instead of trusting it.
"""
