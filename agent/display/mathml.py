"""Math in a text as MathML, for the chat page: `The roots are x = -3 and x = -2.` becomes
text, `<math>x = −3</math>`, text, `<math>x = −2</math>`, text.

The math spans are found by their tokens (numbers, one-letter names, functions called,
operators; ids like `#2` and words are prose), read with the tools' own parser (never eval),
and printed with SymPy's MathML presentation printer, which Chromium and Firefox render
(MathML Core) with no script or font of our own. The parser computes as it reads (`(-3)^2`
is 9), so a span is shown as math only when what it read is what was written, up to spacing,
brackets and `*`: otherwise it stays text, never a different formula. The MathML is rebuilt
from an allowlist of elements and attributes, so nothing but math reaches the page.
"""

from __future__ import annotations

import html.entities
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache

import sympy as sp
from sympy.printing.mathml import mathml

from tools.errors import ToolError
from tools.parsing import parse

MATHML_NS = "http://www.w3.org/1998/Math/MathML"
_ELEMENTS = {
    "math", "mrow", "mi", "mn", "mo", "msup", "msub", "msubsup", "mfrac", "msqrt", "mroot",
    "mtext", "mspace", "mtable", "mtr", "mtd", "mover", "munder", "munderover", "mpadded",
    "mphantom", "mstyle",
}  # fmt: skip
_ATTRIBUTES = {"mathvariant", "stretchy", "fence", "separator", "form", "display"}
_FUNCTIONS = {"sqrt", "sin", "cos", "tan", "log", "ln", "exp", "abs", "asin", "acos", "atan"}
_CONSTANTS = {"pi", "oo", "E", "I"}
_TOKEN = re.compile(
    r"(?P<id>#\d+)|(?P<num>\d+(?:\.\d+)?)|(?P<word>[A-Za-z_]\w*)|(?P<op>\*\*|[-+*/^=()<>])"
    r"|(?P<space>[ \t]+)|(?P<other>.)",
    re.S,
)
_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
MAX_SPAN = 200


@dataclass(frozen=True)
class Segment:
    """Text to show as it is, or math: `mathml` set, `text` what was written."""

    text: str
    mathml: str | None = None

    def as_json(self) -> dict[str, str]:
        return (
            {"text": self.text} if self.mathml is None else {"math": self.mathml, "text": self.text}
        )


def segments(text: str) -> list[Segment]:
    """`text` cut into prose and math, in order; joined, the `text` fields give it back."""
    out: list[Segment] = []
    tokens = [(m.lastgroup or "other", m.group()) for m in _TOKEN.finditer(text)]
    i = 0
    while i < len(tokens):
        end = _span_end(tokens, i)
        if end > i:
            span = "".join(t for _, t in tokens[i:end])
            lead, core, trail = _trim(span)
            shown = to_mathml(core) if core else None
            if shown is not None:
                _add(out, lead)
                out.append(Segment(core, shown))
                _add(out, trail)
                i = end
                continue
            _add(out, span)
            i = end
            continue
        _add(out, tokens[i][1])
        i += 1
    return out


def _add(out: list[Segment], text: str) -> None:
    if not text:
        return
    if out and out[-1].mathml is None:
        out[-1] = Segment(out[-1].text + text)
    else:
        out.append(Segment(text))


def _is_math(tokens: list[tuple[str, str]], i: int) -> bool:
    kind, text = tokens[i]
    if kind in ("num", "op"):
        return True
    if kind != "word":
        return False
    called = i + 1 < len(tokens) and tokens[i + 1][1] == "("
    return len(text) == 1 or text in _CONSTANTS or (text in _FUNCTIONS and called)


def _span_end(tokens: list[tuple[str, str]], start: int) -> int:
    """The end of the math run starting at `start` (== start when none starts there)."""
    if not _is_math(tokens, start):
        return start
    end = start
    i = start
    while i < len(tokens):
        if _is_math(tokens, i):
            i += 1
            end = i
        elif tokens[i][0] == "space":
            i += 1
        else:
            break
    return end


def _trim(span: str) -> tuple[str, str, str]:
    """Leading and trailing blanks and dangling operators are prose, not math."""
    core = span.strip()
    while core and core[-1] in "-+*/^=(<>":
        core = core[:-1].rstrip()
    while core and core[0] in "+*/^=)<>":
        core = core[1:].lstrip()
    if not core or core.count("(") != core.count(")"):
        return span, "", ""
    start = span.index(core)
    return span[:start], core, span[start + len(core) :]


def _canonical(text: str) -> str:
    return re.sub(r"[\s()*]", "", text.replace("**", "^"))


@lru_cache(maxsize=4096)
def to_mathml(source: str) -> str | None:
    """`<math>` for one piece of math, or None when it is not math read as written."""
    if len(source) > MAX_SPAN or not (re.search(r"\d|[=+*/^-]", source)):
        return None
    try:
        parsed = parse(source)
    except (ToolError, ValueError, TypeError, RecursionError):
        return None
    if parsed.rhs is None:
        expression: sp.Basic = parsed.lhs
        written = sp.sstr(parsed.lhs)
    else:
        expression = sp.Eq(parsed.lhs, parsed.rhs, evaluate=False)
        written = f"{sp.sstr(parsed.lhs)} = {sp.sstr(parsed.rhs)}"
    if _canonical(written) != _canonical(source):
        return None
    return sanitized(mathml(expression, printer="presentation"))


def sanitized(inner: str) -> str | None:
    """SymPy's MathML rebuilt from allowed elements and attributes only, in a `<math>`."""
    text = _ENTITY.sub(lambda m: _entity(m.group(1)), inner)
    try:
        root = ET.fromstring(f"<math>{text}</math>")
    except ET.ParseError:
        return None
    if any(element.tag not in _ELEMENTS for element in root.iter()):
        return None
    for element in root.iter():
        for name in list(element.attrib):
            if name not in _ATTRIBUTES:
                del element.attrib[name]
    root.set("xmlns", MATHML_NS)
    return ET.tostring(root, encoding="unicode")


def _entity(name: str) -> str:
    if name in ("lt", "gt", "amp", "quot", "apos"):
        return f"&{name};"
    return html.entities.html5.get(f"{name};", "")
