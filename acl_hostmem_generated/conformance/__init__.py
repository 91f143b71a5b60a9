# Generated from spec 13eb5702b035619f by codegen; do not edit. Regenerate: python -m codegen generate
"""Code generated from spec/ by codegen; never edit by hand."""
