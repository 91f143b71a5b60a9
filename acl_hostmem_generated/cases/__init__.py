# Generated from spec 3e6d0fb3158fa9a9 by codegen; do not edit. Regenerate: python -m codegen generate
"""Code generated from spec/ by codegen; never edit by hand."""
