# Generated from spec f1ab98cc014e1e78 by codegen; do not edit. Regenerate: python -m codegen generate
"""Code generated from spec/ by codegen; never edit by hand."""
