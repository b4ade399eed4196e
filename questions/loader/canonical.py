"""Canonical text: one function writes a question's Markdown; both the content
hash and dump_bank use it, so a dumped file hashes like the file it came from."""

import yaml

from ..models import Kind, Visibility
from .schema import COMMON_KEYS, KIND_KEYS, SECTIONS


class _FlowList(list):
    pass


class _FlowDict(dict):
    pass


class _BankDumper(yaml.SafeDumper):
    def increase_indent(self, flow=False, indentless=False):
        # Indent list items under their key ("rubric:\n  - ..."), as people write them.
        return super().increase_indent(flow, False)


_BankDumper.add_representer(
    _FlowList, lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)
)
_BankDumper.add_representer(
    _FlowDict, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)
)


def plain_number(value):
    """31.0 is written as 31, so dumped files read like hand-written ones."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    return value


def canonical_front_matter(fields, spec):
    front = {key: fields[key] for key in COMMON_KEYS}
    front["tags"] = _FlowList(fields["tags"])
    kind = fields["kind"]
    if kind == Kind.CONCEPT:
        front["rubric"] = list(fields["rubric"])
    elif kind == Kind.NUMERIC:
        front["answer"] = plain_number(fields["answer_value"])
        front["unit"] = fields["answer_unit"]
        front["tolerance"] = fields["tolerance"]
    elif kind == Kind.CODING:
        for key in KIND_KEYS[Kind.CODING]:
            if key in spec:
                value = spec[key]
                front[key] = (
                    _FlowDict(value)
                    if isinstance(value, dict)
                    else _FlowList(value)
                    if isinstance(value, list)
                    else value
                )
    if fields.get("visibility", Visibility.PUBLIC) != Visibility.PUBLIC:
        front["visibility"] = fields["visibility"]  # written only when not public: public files keep their hash
    for key in sorted(fields["extra"]):
        front[key] = fields["extra"][key]
    return front


def render_question_markdown(fields, spec):
    front = yaml.dump(
        canonical_front_matter(fields, spec), Dumper=_BankDumper, sort_keys=False, allow_unicode=True, width=10_000
    )
    parts = [f"---\n{front}---\n"]
    for name, heading in SECTIONS.items():
        if fields[name]:
            parts.append(f"# {heading}\n\n{fields[name]}\n")
    return "\n".join(parts)
