# Generated from spec d20c8b7b94886c62 by codegen; do not edit. Regenerate: python -m codegen generate
"""Code generated from spec/ by codegen; never edit by hand."""
