"""A kernel array's fields, declared once: the offsets the kernel reads and, for a state
array, the engine's read-only properties over the same words.

    STATE = StateLayout("Durak's state array")
    PHASE = STATE.word("PHASE", "DEAL .. OVER.")
    HANDS = STATE.words("HANDS", MAX_SEATS, "Each seat's cards.", per="num_players")
    TABLE_N = STATE.word("TABLE_N")
    TABLE = STATE.counted("TABLE", MAX_CARDS, TABLE_N, "The bout's cards in play order.")
    LOG = STATE.block("LOG", 3 * MAX_EVENTS)        # the kernel's own: no property
    STATE_SIZE = STATE.size

Each declaration returns its offset, laid end to end, so the kernel's constants stay plain
module globals (what numba compiles as constants) and nobody numbers a word by hand.
`KernelEngine` gives every field but a `block` a property named after it in lower case
(`engine.phase`, `engine.hands` as a list of `num_players` words); a property that would
hide an engine attribute is refused when the engine class is made.  A rules array is laid
out the same way and gives no properties.
"""

from __future__ import annotations

from typing import NamedTuple


class Field(NamedTuple):
    name: str                 # the kernel's constant, upper case
    offset: int
    size: int
    kind: str                 # "word", "flag", "words", "counted" or "block"
    doc: str | None = None
    per: str | int | None = None    # words: the rules attribute (or number) that counts them
    length_at: int = -1             # counted: the offset of the word holding the length
    as_tuple: bool = False          # counted: read as a tuple

    def engine_property(self) -> property:
        """The engine's read-only view of this field, as plain Python values."""
        index, kind = self.offset, self.kind
        if kind == "word":
            return property(lambda engine: engine.st.item(index), doc=self.doc)
        if kind == "flag":
            return property(lambda engine: bool(engine.st.item(index)), doc=self.doc)
        if kind == "words":
            per = self.size if self.per is None else self.per
            if isinstance(per, int):
                return property(lambda engine: engine.st[index:index + per].tolist(),
                                doc=self.doc)
            return property(lambda engine: engine.st[index:index + getattr(engine.rules, per)]
                            .tolist(), doc=self.doc)
        if kind == "counted":
            length_at, as_tuple = self.length_at, self.as_tuple

            def read(engine):
                st = engine.st
                run = st[index:index + st.item(length_at)].tolist()
                return tuple(run) if as_tuple else run
            return property(read, doc=self.doc)
        raise ValueError(f"a {kind} field has no property")


class StateLayout:
    """Fields in order, each at the end of the one before."""

    def __init__(self, title: str):
        self.title = title
        self.fields: list[Field] = []
        self.size = 0

    def _add(self, name: str, size: int, kind: str, doc: str | None = None, **more) -> int:
        if not name.isupper() or not name.isidentifier():
            raise ValueError(f"{self.title}: a field is named as its constant, upper case: "
                             f"{name!r}")
        if any(field.name == name for field in self.fields):
            raise ValueError(f"{self.title}: the field {name} is declared twice")
        if size < 1:
            raise ValueError(f"{self.title}: the field {name} needs a size of at least 1")
        offset = self.size
        self.fields.append(Field(name, offset, size, kind, doc, **more))
        self.size += size
        return offset

    def word(self, name: str, doc: str | None = None) -> int:
        """One int64 word, read as an int."""
        return self._add(name, 1, "word", doc)

    def scalars(self, names: str) -> tuple[int, ...]:
        """One word each for the space-separated `names`, in order: a rules array's
        scalars, unpacked into the constants of the same names (a kernel's test checks
        each constant against its field)."""
        return tuple(self.word(name) for name in names.split())

    def flag(self, name: str, doc: str | None = None) -> int:
        """One word, 0 or 1, read as a bool."""
        return self._add(name, 1, "flag", doc)

    def words(self, name: str, size: int, doc: str | None = None, *,
              per: str | int | None = None) -> int:
        """`size` words, read as a list of as many as the rules attribute `per` says (a word
        a seat: `per="num_players"`), or of `per` words, or of all of them."""
        if isinstance(per, int) and not 0 < per <= size:
            raise ValueError(f"{self.title}: {name} reads {per} of its {size} words")
        return self._add(name, size, "words", doc, per=per)

    def counted(self, name: str, size: int, count: int, doc: str | None = None, *,
                as_tuple: bool = False) -> int:
        """Up to `size` words, read as a list (a tuple with `as_tuple`) as long as the word
        at offset `count` says."""
        if not any(field.offset == count and field.kind == "word" for field in self.fields):
            raise ValueError(f"{self.title}: {name}'s length is not a word declared before it")
        return self._add(name, size, "counted", doc, length_at=count, as_tuple=as_tuple)

    def block(self, name: str, size: int, doc: str | None = None) -> int:
        """`size` words with no property: the kernel's own (logs, packed records, tables)
        or read by the engine in a way of its own (a grid, a decoded list)."""
        return self._add(name, size, "block", doc)

    def field(self, name: str) -> Field:
        for field in self.fields:
            if field.name == name:
                return field
        raise KeyError(name)

    def properties(self) -> dict[str, property]:
        """Every field but a block as an engine property, named in lower case."""
        return {field.name.lower(): field.engine_property()
                for field in self.fields if field.kind != "block"}

    def describe(self) -> str:
        """One line per field: offset, size, name and what it is (for docs and
        debugging)."""
        return "\n".join(f"{field.offset:>5} {field.size:>4}  {field.name:<16} "
                         f"{field.doc or ''}".rstrip() for field in self.fields)
