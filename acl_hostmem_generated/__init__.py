# Generated from spec 2aa0b05e1b7a2327 by codegen; do not edit. Regenerate: python -m codegen generate
"""Code generated from spec/ by codegen; never edit by hand."""
