"""Parse crawled files into kernel units (tree-sitter-cpp over masked AscendC sources).

    from cotbuilder.parse import extract_units, extract_doc_units

`extract_units(source_id, files)` groups a source's file records into `kernel_launch` / `op_project` units;
`extract_doc_units(source_id, page_file, blocks)` turns documentation code blocks into `kernel_launch` / `snippet`
units. Both return records valid against schemas/unit.schema.json.
"""

from .units import extract_doc_units, extract_units

__all__ = ["extract_units", "extract_doc_units"]
