# Generated from spec 645fd0ebaebde54e by codegen; do not edit. Regenerate: python -m codegen generate
"""Code generated from spec/ by codegen; never edit by hand."""
