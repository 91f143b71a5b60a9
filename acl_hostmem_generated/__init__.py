# Generated from spec f7528bdbf4bb2a5f by codegen; do not edit. Regenerate: python -m codegen generate
"""Code generated from spec/ by codegen; never edit by hand."""
