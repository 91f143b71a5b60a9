"""Spec-driven code generator for the ACL host-memory conformance kit.

Data flows one way: ``spec/*.yaml`` is loaded with source locations
(:mod:`codegen.yamlload`), validated against JSON Schemas and cross-reference rules
(:mod:`codegen.validate`), turned into a frozen model (:mod:`codegen.model`), expanded
into conformance cases (:mod:`codegen.cases`) and rendered by thin Jinja2 templates
(:mod:`codegen.render`) into the package ``acl_hostmem_generated`` (:mod:`codegen.writer`).
"""

__all__ = ["__version__"]
__version__ = "0.1.0"
