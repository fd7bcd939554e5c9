"""Reading a scenario file into YAML nodes that remember the line each field is on.

ruamel.yaml's round-trip loader keeps line and column of every mapping key and
sequence item (``node.lc``); ``LineIndex`` flattens that into field path -> line
so any later check, including a ruleset's, can point at the right line.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq, TaggedScalar
from ruamel.yaml.composer import Composer
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent, ScalarEvent
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.scalarbool import ScalarBoolean

from killhouse.errors import Problem
from killhouse.scenario import limits

_PARENT = re.compile(r"^(.*?)(\.[^.\[\]]*|\[\d+\])$")


@dataclass(frozen=True)
class Source:
    """A scenario's bytes and decoded text, with the name to show in messages."""

    file: str
    data: bytes
    text: str


def join(parent: str, key: object) -> str:
    """The field path of ``key`` inside ``parent`` (``figures[2]`` + ``card``)."""
    return f"{parent}.{key}" if parent else str(key)


def item(parent: str, index: int) -> str:
    """The field path of item ``index`` of the list at ``parent``."""
    return f"{parent}[{index}]"


def parent_path(path: str) -> str:
    """``figures[2].card`` -> ``figures[2]`` -> ``figures`` -> ``""``."""
    match = _PARENT.match(path)
    return match.group(1) if match else ""


def read_source(path: str | Path) -> Source | Problem:
    """The file's bytes and UTF-8 text, or the one problem that stops us reading it.

    At most ``MAX_FILE_BYTES`` + 1 bytes are read, so a huge file or a device never hangs us.
    """
    file = str(path)
    target = Path(path)
    try:
        with target.open("rb") as stream:
            data = stream.read(limits.MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return Problem(file, 0, "", "no such file", "check the path")
    except IsADirectoryError:
        return Problem(file, 0, "", "this is a directory, not a scenario file")
    except PermissionError:
        return Problem(file, 0, "", "permission denied while reading the file")
    except OSError as exc:
        return Problem(file, 0, "", f"cannot read the file: {exc.strerror or exc}")
    return decode(data, file)


def decode(data: bytes, file: str) -> Source | Problem:
    """Decode UTF-8 (a byte-order mark is allowed); binary junk is one clear problem."""
    if len(data) > limits.MAX_FILE_BYTES:
        return Problem(
            file,
            0,
            "",
            f"the file is larger than {limits.MAX_FILE_BYTES} bytes (1 MiB), the limit "
            "for a scenario",
            "a scenario is a map and a few dozen figures: is this the right file?",
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return Problem(
            file,
            line,
            "",
            f"not a text file: byte 0x{data[exc.start]:02x} at offset {exc.start} is not UTF-8",
            "scenario files are YAML text saved as UTF-8",
        )
    return Source(file, data, text)


class LimitError(Exception):
    """The document is beyond a limit of ``scenario.limits`` (or uses an explicit tag)."""

    def __init__(self, line: int, path: str, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.line = line
        self.path = path
        self.message = message
        self.hint = hint


_INT_TAG = "tag:yaml.org,2002:int"


class GuardedComposer(Composer):
    """ruamel's composer, counting as it goes: values, aliases, depth, digits, tags.

    Every check runs before the constructor builds Python values, so a hostile document
    (an alias bomb, ``!!python/object``, a 10,000-digit number) is refused, never expanded.
    Field paths are tracked as nodes are composed, so a refusal names its field.
    """

    def __init__(self, loader: Any = None) -> None:
        super().__init__(loader)
        self._paths: list[str] = []
        self._nodes = 0
        self._aliases = 0

    def _refuse(self, event: Any, path: str, message: str, hint: str = "") -> LimitError:
        mark = getattr(event, "start_mark", None)
        line = int(mark.line) + 1 if mark is not None else 0
        return LimitError(line, path, message, hint)

    def _path(self, parent: Any, index: Any) -> str:
        if parent is None or not self._paths:
            return ""
        above = self._paths[-1]
        if isinstance(index, int):
            return item(above, index)
        if isinstance(index, ScalarNode):
            return join(above, index.value)
        return above  # a mapping key: reported at the mapping that holds it

    def compose_node(self, parent: Any, index: Any) -> Any:
        path = self._path(parent, index)
        event = self.parser.peek_event()
        if isinstance(event, AliasEvent):
            self._aliases += 1
            if self._aliases > limits.MAX_ALIASES:
                raise self._refuse(
                    event,
                    path,
                    f"more than {limits.MAX_ALIASES} aliases (*name) in one file, the limit",
                    "write the values out, or use fewer aliases",
                )
            return super().compose_node(parent, index)
        self._nodes += 1
        if self._nodes > limits.MAX_NODES:
            raise self._refuse(
                event,
                path,
                f"more than {limits.MAX_NODES} YAML values in one file, the limit for a scenario",
                "a scenario is a map and a few dozen figures: is this the right file?",
            )
        if len(self._paths) >= limits.MAX_DEPTH:
            raise self._refuse(
                event,
                path,
                f"lists and mappings nested more than {limits.MAX_DEPTH} deep, the limit",
            )
        tag = getattr(event, "ctag", None)
        if tag is not None and str(tag) != "!":
            raise self._refuse(
                event,
                path,
                f"explicit YAML tags such as {_tag_text(tag)} are not supported",
                "write the plain value without the tag",
            )
        self._paths.append(path)
        try:
            node = super().compose_node(parent, index)
        finally:
            self._paths.pop()
        if (
            isinstance(event, ScalarEvent)
            and str(node.tag) == _INT_TAG
            and sum(c.isdigit() for c in str(node.value)) > limits.MAX_DIGITS
        ):
            raise self._refuse(
                event,
                path,
                f"a whole number with more than {limits.MAX_DIGITS} digits, the limit",
            )
        return node

    def get_single_node(self) -> Any:
        node = super().get_single_node()
        if isinstance(node, MappingNode | SequenceNode):
            _check_expansion(node)
        return node


def _check_expansion(root: MappingNode | SequenceNode) -> None:
    """Refuse a document whose aliases expand past ``MAX_EXPANDED``, at the field that does it."""
    memo: dict[int, int] = {}
    total = 1
    children = (
        [(join("", k.value), k, v) for k, v in root.value]
        if isinstance(root, MappingNode)
        else [(item("", i), v, v) for i, v in enumerate(root.value)]
    )
    for path, where, child in children:
        total += _expanded_size(child, memo, {id(root)}) + 1
        if total > limits.MAX_EXPANDED:
            raise LimitError(
                int(where.start_mark.line) + 1,
                path,
                f"the aliases (*name) here expand the document past {limits.MAX_EXPANDED} "
                "values, the limit",
                "an alias repeats a whole list or mapping: write fewer of them",
            )


def _tag_text(tag: Any) -> str:
    text = str(getattr(tag, "handle", None) or "") + str(getattr(tag, "suffix", None) or "")
    return text if text and text != "None" else str(tag)


def _expanded_size(node: Any, memo: dict[int, int], active: set[int]) -> int:
    """How many values ``node`` stands for once aliases are expanded (each node visited once)."""
    key = id(node)
    if key in memo:
        return memo[key]
    if key in active:  # an alias to an enclosing list or mapping: reported later, field by field
        return 1
    if not isinstance(node, MappingNode | SequenceNode):
        return 1
    active.add(key)
    total = 1
    for child in node.value:
        if isinstance(child, tuple):
            total += _expanded_size(child[0], memo, active) + _expanded_size(child[1], memo, active)
        else:
            total += _expanded_size(child, memo, active)
        if total > limits.MAX_EXPANDED:
            break  # the count only has to pass the limit to refuse
    active.discard(key)
    memo[key] = total
    return total


def parse_yaml(source: Source) -> Any | Problem:
    """The document's round-trip nodes, or the syntax problem with the parser's line.

    The composer counts and caps before anything is built (``scenario.limits``).
    """
    yaml = YAML(typ="rt")
    yaml.Composer = GuardedComposer
    try:
        return yaml.load(source.text)
    except LimitError as exc:
        return Problem(source.file, exc.line, exc.path, exc.message, exc.hint)
    except MarkedYAMLError as exc:
        return _marked_problem(source, exc)
    except YAMLError as exc:
        # ruamel's ReaderError: a control character the YAML spec forbids
        position = getattr(exc, "position", None)
        line = source.text[:position].count("\n") + 1 if isinstance(position, int) else 0
        character = getattr(exc, "character", None)
        found = f"character {character:#06x}" if isinstance(character, int) else "a character"
        return Problem(
            source.file,
            line,
            "",
            f"YAML syntax: {found} is not allowed in YAML text",
            "is this a binary file? scenario files are YAML text",
        )
    except RecursionError:
        return Problem(source.file, 0, "", "YAML syntax: the document is nested too deeply")


def _marked_problem(source: Source, exc: MarkedYAMLError) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    line = int(mark.line) + 1 if mark is not None else 0
    problem = str(exc.problem or exc.context or "invalid YAML").strip()
    hint = ""
    context_mark = exc.context_mark
    if exc.context and exc.problem:
        started = ""
        if context_mark is not None and context_mark.line != getattr(mark, "line", None):
            started = f" that starts on line {int(context_mark.line) + 1}"
        hint = f"{str(exc.context).strip()}{started}"
    if mark is not None:
        problem = f"{problem} (column {int(mark.column) + 1})"
    if "\t" in problem or "'\\t'" in problem:
        hint = "YAML indents with spaces, never tabs"
    return Problem(source.file, line, "", f"YAML syntax: {problem}", hint)


class LineIndex:
    """Field path -> 1-based line, for every key and list item in the document."""

    def __init__(self) -> None:
        self._lines: dict[str, int] = {}

    @classmethod
    def build(cls, root: object) -> LineIndex:
        index = cls()
        index._lines[""] = 1
        index._walk(root, "", set())
        return index

    def _walk(self, node: object, path: str, seen: set[int]) -> None:
        # an aliased node is walked once: anchors must not blow up into exponential paths
        if id(node) in seen:
            return
        if isinstance(node, CommentedMap):
            seen.add(id(node))
            own = _own_line(node)
            for key in list(node.keys()):
                sub = join(path, key)
                self._lines.setdefault(sub, _key_line(node, key) or own)
                self._walk(node[key], sub, seen)
        elif isinstance(node, CommentedSeq):
            seen.add(id(node))
            own = _own_line(node)
            for i, value in enumerate(node):
                sub = item(path, i)
                self._lines.setdefault(sub, _item_line(node, i) or own)
                self._walk(value, sub, seen)

    def record(self, path: str, line: int) -> None:
        self._lines[path] = line

    def line_of(self, path: str) -> int:
        """The line of ``path``, else of its nearest recorded ancestor; 0 if none."""
        current = path
        while True:
            if current in self._lines:
                return self._lines[current]
            if not current:
                return 0
            current = parent_path(current)


def _own_line(node: CommentedMap | CommentedSeq) -> int:
    line = getattr(node.lc, "line", None)
    return int(line) + 1 if isinstance(line, int) else 0


def _key_line(node: CommentedMap, key: object) -> int:
    try:
        position = node.lc.key(key)
    except (KeyError, TypeError):  # keys brought in by a merge (<<) have no position
        return 0
    return int(position[0]) + 1 if position else 0


def value_line(node: Mapping[Any, Any], key: object) -> int:
    """The line where the value of ``key`` starts (a block scalar: the ``|`` line)."""
    try:
        position = node.lc.value(key)  # type: ignore[attr-defined]
    except (AttributeError, KeyError, TypeError):
        return 0
    return int(position[0]) + 1 if position else 0


def _item_line(node: CommentedSeq, index: int) -> int:
    try:
        position = node.lc.item(index)
    except (KeyError, TypeError):
        return 0
    return int(position[0]) + 1 if position else 0


def is_bool(value: object) -> TypeGuard[int]:
    """True for YAML ``true``/``false`` (ruamel gives anchored booleans as an int subclass)."""
    return isinstance(value, bool | ScalarBoolean)


def is_int(value: object) -> TypeGuard[int]:
    """True for a whole number that is not a boolean."""
    return isinstance(value, int) and not is_bool(value)


def describe(value: object) -> str:
    """A value as a message shows it: ``'ten' (text)``, ``3.5 (a number)``, ``a list``."""
    if value is None:
        return "nothing"
    if is_bool(value):
        return f"{'true' if value else 'false'} (a yes/no value)"
    if isinstance(value, int):
        return f"{int(value)} (a whole number)"
    if isinstance(value, float):
        return f"{float(value)} (a number)"
    if isinstance(value, TaggedScalar):
        return f"a value tagged {value.tag.value}"
    if isinstance(value, str):
        return f"{str(value)!r} (text)"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, datetime.date):
        return f"the date {value.isoformat()}"
    return f"a {type(value).__name__}"


class PlainError(ValueError):
    """A value that cannot become plain data (a custom tag, a date, a loop of aliases)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def to_plain(node: object, path: str) -> Any:
    """Plain dicts, lists, str, int, float, bool and None, as rulesets expect (JSON-friendly).

    Raises ``PlainError`` naming the field of the first value that has no plain form.
    """
    return _plain(node, path, {}, set())


def _plain(node: object, path: str, memo: dict[int, Any], active: set[int]) -> Any:
    if isinstance(node, Mapping | list):
        key = id(node)
        if key in active:
            raise PlainError(path, "an alias refers to the mapping or list that contains it")
        if key in memo:  # shared by an alias: convert once
            return memo[key]
        active.add(key)
        result: Any
        if isinstance(node, Mapping):
            result = {str(k): _plain(v, join(path, k), memo, active) for k, v in node.items()}
        else:
            result = [_plain(v, item(path, i), memo, active) for i, v in enumerate(node)]
        active.discard(key)
        memo[key] = result
        return result
    if node is None:
        return None
    if is_bool(node):
        return bool(node)
    if isinstance(node, TaggedScalar):
        raise PlainError(path, f"custom YAML tags such as {node.tag.value} are not supported")
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    raise PlainError(path, f"expected text, a number, a list or a mapping, found {describe(node)}")
