"""LaTeX written as the plain notation the parser reads and a terminal shows.

People paste math from homework sheets (`\\frac{x^2 - 1}{x + 1}`, `e^{2x}`), and small models
trained on web math wrap answers in `\\( ... \\)` and write `\\frac{1}{3}` out of habit. One
reading serves both: the person's message before anything reads it (`UserMessage.from_person`),
every tool's input (`tools.parsing`) and every answer before it is shown. Commands become plain
text and Unicode (`(a)/(b)`, `√(x)`, `±`, `·`, `π`), keeping the grouping the braces carried
wherever the parser would read it otherwise (`e^(2x)`, `1/(2x)`); Leibniz's `\\frac{d}{dx}` stays
the operation `d/dx`. Text without LaTeX is left alone. (pylatexenc was tried first: it drops
the grouping of `\\frac{-5 \\pm \\sqrt{13}}{2}`, which changes the math, and treats `%` as a
comment.)
"""

from __future__ import annotations

import re

# Commands that become a symbol (a trailing space keeps "\\pi x" apart).
SYMBOLS = {
    "cdot": "·",
    "times": "×",
    "div": "÷",
    "pm": "±",
    "mp": "∓",
    "pi": "π",
    "infty": "∞",
    "int": "∫",
    "sum": "∑",
    "leq": "≤",
    "le": "≤",
    "geq": "≥",
    "ge": "≥",
    "neq": "≠",
    "ne": "≠",
    "approx": "≈",
    "to": "→",
    "rightarrow": "→",
    "Rightarrow": "⇒",
    "implies": "⇒",
    "theta": "θ",
    "alpha": "α",
    "beta": "β",
    "lambda": "λ",
    "partial": "∂",
    "nabla": "∇",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "mu": "μ",
    "rho": "ρ",
    "sigma": "σ",
    "tau": "τ",
    "phi": "φ",
    "omega": "ω",
    "quad": " ",
    "qquad": " ",
    "circ": "°",  # `30^\circ`: degrees (the `^` is dropped below)
    "bmod": " mod ",
}
# Commands written as their name (functions) or dropped (spacing, sizing, wrappers).
NAMED = {
    "sin",
    "cos",
    "tan",
    "ln",
    "log",
    "exp",
    "sec",
    "csc",
    "cot",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "lim",
    "max",
    "min",
}
DROPPED = {
    "left",
    "right",
    "displaystyle",
    "big",
    "Big",
    "bigl",
    "bigr",
    "Bigl",
    "Bigr",
    "limits",
    "nolimits",
}
# Commands whose braced argument is kept as it is.
WRAPPERS = {"text", "mathrm", "mathbf", "mathit", "operatorname", "boxed", "textbf", "mbox"}

_DELIMITERS = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$")
_INLINE_DOLLARS = re.compile(r"\$([^$\n]*[\\^_{}][^$\n]*)\$")
_SPACING = re.compile(r"\\[,;:! ]")
_COMMAND = re.compile(r"\\([A-Za-z]+)")
# Leibniz's derivative written as a fraction: `\frac{d}{dx}`, `\frac{d^2y}{dx^2}`.
_LEIBNIZ_TOP = re.compile(r"d(?:\^\(?\d\)?|[²³])?[A-Za-z]?")
_LEIBNIZ_BOTTOM = re.compile(r"d[A-Za-z](?:\^\(?\d\)?|[²³])?")
_LATEX_HINT = re.compile(r"\\[A-Za-z(\[%]|\^\{|_\{|\$\$")


# Every command this module reads: what a JSON escape may have cut the backslash off.
_FRACTIONS = {"frac", "dfrac", "tfrac"}
_BINOMIALS = {"binom", "dbinom", "tbinom"}
COMMANDS = frozenset(SYMBOLS) | NAMED | DROPPED | WRAPPERS | _FRACTIONS | _BINOMIALS | {"sqrt"}
# A LaTeX command written in a JSON string with one backslash loses it to a JSON escape:
# `\frac` arrives as a form feed and "rac", `\times` and `\theta` as a tab, `\beta` as a
# backspace, `\right` and `\rho` as a carriage return, `\neq` and `\nabla` as a newline.
_ESCAPES = {"\f": "f", "\t": "t", "\b": "b", "\r": "r", "\n": "n"}
_ESCAPED_COMMAND = re.compile(r"([\f\t\b\r\n])([A-Za-z]+)")


def plain_math(text: str) -> str:
    """A model's text (an answer, a tool call's math) with its LaTeX written plainly, the
    backslashes a JSON escape took put back first."""
    return plain_latex(json_escapes_undone(text))


def plain_latex(text: str) -> str:
    """`text` with its LaTeX written plainly (text without LaTeX is returned as it is)."""
    return _from_latex(text) if _LATEX_HINT.search(text) else text


def json_escapes_undone(text: str) -> str:
    """Commands whose backslash a JSON escape took, written as commands again: a control
    character followed by the rest of a command's name (and no more letters). A newline
    stays one unless what follows completes a command of three letters or more (`\neq`,
    `\nabla`): a line may well begin with "e" or "u"."""

    def undone(match: re.Match[str]) -> str:
        control, rest = match.group(1), match.group(2)
        name = _ESCAPES[control] + rest
        if name not in COMMANDS or (control == "\n" and len(name) < 3):
            return match.group(0)
        return "\\" + name

    return _ESCAPED_COMMAND.sub(undone, text)


def _from_latex(text: str) -> str:
    text = _INLINE_DOLLARS.sub(r"\1", text)
    text = _DELIMITERS.sub("", text)
    text = _SPACING.sub(" ", text)
    text = _rewrite(text).replace("^(°)", "°").replace("^°", "°")
    text = re.sub(r"[ \t]{2,}", " ", text)
    return "\n".join(line.strip() for line in text.splitlines()).strip()


def _rewrite(text: str) -> str:
    """Commands and braces, innermost first by recursion on each argument."""
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\":
            match = _COMMAND.match(text, i)
            if match is None:  # "\\{" and the like: the character itself
                out.append(text[i + 1 : i + 2])
                i += 2
                continue
            name, i = match.group(1), match.end()
            piece, i = _command(name, text, i)
            if out and out[-1][-1:].isalnum() and piece[:1].isalnum():
                out.append(" ")  # `3\frac{1}{2}` is not 31/2
            out.append(piece)
        elif char in "^_" and text[i + 1 : i + 2] == "{":
            body, i = _group(text, i + 1)
            inner = _rewrite(body)
            out.append(char + (inner if _atomic(inner) else f"({inner})"))
        elif char == "{":
            body, i = _group(text, i)
            out.append(_rewrite(body))
        elif char == "}":
            i += 1
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _command(name: str, text: str, i: int) -> tuple[str, int]:
    if name in _BINOMIALS:
        top, i = _argument(text, i)
        bottom, i = _argument(text, i)
        return f"binomial({top}, {bottom})", i
    if name in _FRACTIONS:
        top, i = _argument(text, i)
        bottom, i = _argument(text, i)
        if _LEIBNIZ_TOP.fullmatch(top.replace(" ", "")) and _LEIBNIZ_BOTTOM.fullmatch(
            bottom.replace(" ", "")
        ):
            return f"{top}/{bottom}", i  # `d/dx`, `dy/dx`, `d^2y/dx^2`: an operation
        return f"{_grouped(top)}/{_grouped(bottom, below=True)}", i
    if name == "sqrt":
        index = ""
        if text[i : i + 1] == "[":
            end = text.find("]", i)
            if end > 0:
                index, i = text[i + 1 : end], end + 1
        body, i = _argument(text, i)
        shown = body if _atomic(body) else f"({body})"
        roots = {"": "√", "2": "√", "3": "∛", "4": "∜"}
        if index.strip() in roots:
            return roots[index.strip()] + shown, i
        return f"{shown}^(1/{index.strip()})", i
    if name in WRAPPERS:
        body, i = _argument(text, i)
        return body, i
    if name in SYMBOLS:
        return SYMBOLS[name] + (" " if text[i : i + 1].isalnum() else ""), i
    if name in NAMED:
        return name + (" " if text[i : i + 1].isalnum() else ""), i
    if name in DROPPED:
        return "", i
    return name, i


def _argument(text: str, i: int) -> tuple[str, int]:
    """A braced argument (rewritten), or the single next character."""
    while text[i : i + 1] == " ":
        i += 1
    if text[i : i + 1] == "{":
        body, i = _group(text, i)
        return _rewrite(body).strip(), i
    return text[i : i + 1], i + 1


def _group(text: str, i: int) -> tuple[str, int]:
    """The text inside the braces opening at i, and the index after the closing brace."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1 : j], j + 1
    return text[i + 1 :], len(text)


def _atomic(text: str) -> bool:
    """A number, one letter or a constant: a power or root of it needs no parentheses
    (`e^2x` is read e²·x, `√2x` √2·x: those keep theirs)."""
    return bool(re.fullmatch(r"[0-9.]+|[A-Za-z]|π|∞", text.strip()))


def _grouped(text: str, below: bool = False) -> str:
    """A fraction's part, in parentheses unless it is read whole: `2x/3` is (2x)/3, but
    `1/2x` is x/2, so a part below the bar must be a number, one letter or π alone."""
    whole = r"[0-9.]+|[A-Za-z]|π" if below else r"[A-Za-z0-9.π]+"
    return text if re.fullmatch(whole, text) else f"({text})"
