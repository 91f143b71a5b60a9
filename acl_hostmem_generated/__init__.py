# Generated from spec 7d2f2fbd0c362589 by codegen; do not edit. Regenerate: python -m codegen generate
"""Code generated from spec/ by codegen; never edit by hand."""
