"""Just enough C to read table headers: comments, line continuations, #if blocks, macro calls, literals.

This is not a C preprocessor. It reads files that are lists of macro calls (the kernel's
unusual_*.h, smartmontools' drivedb.h) and refuses anything else, so that a change upstream
shows up as an error with a line number instead of silently missing entries.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from .common import SourceError

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "?": "?", "0": "\0"}


def strip_comments(text: str, file: str) -> str:
    """Replace every comment by spaces, keeping newlines and offsets, and leave literals alone."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise SourceError(file, text.count("\n", 0, i) + 1, "comment is never closed", "is the file complete?")
            out.append(re.sub(r"[^\n]", " ", text[i:end + 2]))
            i = end + 2
        elif c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif c in "\"'":
            end = _literal_end(text, i, file)
            out.append(text[i:end])
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _literal_end(text: str, start: int, file: str) -> int:
    quote = text[start]
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i + 1
        if text[i] == "\n":
            break
        i += 1
    raise SourceError(file, text.count("\n", 0, start) + 1, f"{'string' if quote == chr(34) else 'character'} literal is not closed on its line")


class Lines:
    """Offset -> line number for one text."""

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


@dataclass
class Directive:
    line: int
    name: str          # if, ifdef, ifndef, elif, else, endif, define, undef, include
    argument: str      # whitespace-normalised, continuations joined
    condition: str     # the #if condition in force at this directive ("" when none)


@dataclass
class Call:
    """One top-level macro call such as UNUSUAL_DEV(...)."""
    name: str
    line: int
    args: list[str]
    arg_lines: list[int]
    condition: str


@dataclass
class Header:
    """A table header with its directives and top-level macro calls."""
    file: str
    calls: list[Call] = field(default_factory=list)
    directives: list[Directive] = field(default_factory=list)


def _condition_text(stack: list[list[str]]) -> str:
    parts = []
    for branch in stack:
        parts.extend(branch)
    return " && ".join(parts)


def _negate(condition: str) -> str:
    return condition[1:] if re.fullmatch(r"!defined\([A-Za-z0-9_]+\)", condition) else f"!({condition})"


def read_header(text: str, file: str, macros: tuple[str, ...]) -> Header:
    """Read a header made of preprocessor directives and calls of `macros` separated by commas.

    Each call records the #if conditions it sits under; any other code is an error."""
    code = strip_comments(text, file)
    lines = Lines(code)
    header = Header(file)
    # Blank out directives (with their continuation lines) so only calls remain, remembering
    # where each one was and which #if condition holds from there on.
    chars = list(code)
    stack: list[list[str]] = []          # per open #if: the terms that make the current branch active
    opened: list[int] = []               # line of each open #if, for the "never closed" error
    had_else = set()                     # lines of the #ifs whose #else has been seen
    switches: list[tuple[int, str]] = [(0, "")]
    pos = 0
    continued_until = 0                  # end of the last directive, whose continuation lines we skip
    for raw_line in code.split("\n"):
        start = pos
        pos += len(raw_line) + 1
        if start < continued_until or not raw_line.lstrip().startswith("#"):
            continue
        # A directive runs on while its physical lines end in a backslash.
        end = pos
        while code[start:end].rstrip("\n").endswith("\\") and end < len(code):
            next_end = code.find("\n", end)
            end = len(code) if next_end < 0 else next_end + 1
        end = min(end, len(code))
        continued_until = end
        directive_text = code[start:end]
        for k in range(start, end):
            if chars[k] != "\n":
                chars[k] = " "
        line = lines.line(start)
        body = re.sub(r"\\\n", " ", directive_text).strip()[1:].strip()
        match = re.match(r"([a-z]+)\b\s*(.*)", body, re.S)
        if not match:
            raise SourceError(file, line, f"cannot read the preprocessor line `#{body}`")
        name, argument = match.group(1), " ".join(match.group(2).split())
        header.directives.append(Directive(line, name, argument, _condition_text(stack)))
        if name in ("if", "ifdef", "ifndef"):
            if not argument:
                raise SourceError(file, line, f"#{name} without a condition")
            term = {"if": argument, "ifdef": f"defined({argument})", "ifndef": f"!defined({argument})"}[name]
            stack.append([term])
            opened.append(line)
        elif name in ("elif", "else"):
            if not stack:
                raise SourceError(file, line, f"#{name} without a matching #if")
            if opened[-1] in had_else:
                raise SourceError(file, line, f"#{name} after #else")
            if name == "else":
                had_else.add(opened[-1])
            # This branch is active when every earlier branch of the same #if was not.
            previous = stack[-1]
            stack[-1] = previous[:-1] + [_negate(previous[-1])] + ([argument] if name == "elif" else [])
        elif name == "endif":
            if not stack:
                raise SourceError(file, line, "#endif without a matching #if")
            stack.pop()
            opened.pop()
        elif name in ("define", "undef", "include"):
            pass
        else:
            raise SourceError(file, line, f"unexpected preprocessor directive #{name}",
                              "the importer understands #if/#ifdef/#ifndef/#elif/#else/#endif/#define/#undef/#include")
        switches.append((end, _condition_text(stack)))
    if stack:
        raise SourceError(file, opened[-1], "#if block is never closed with #endif")
    calls_text = "".join(chars)
    switch_offsets = [s for s, _ in switches]

    def condition_at(offset: int) -> str:
        return switches[bisect.bisect_right(switch_offsets, offset) - 1][1]

    i, n = 0, len(calls_text)
    while i < n:
        c = calls_text[i]
        if c.isspace() or c == "," or c == ";":
            i += 1
            continue
        ident = _IDENT.match(calls_text, i)
        if not ident:
            raise SourceError(file, lines.line(i), f"unexpected text `{_snippet(calls_text, i)}`",
                              f"expected one of {', '.join(macros)}")
        name = ident.group(0)
        j = ident.end()
        while j < n and calls_text[j] in " \t\n":
            j += 1
        if name not in macros or j >= n or calls_text[j] != "(":
            raise SourceError(file, lines.line(i), f"unexpected `{name}`", f"expected one of {', '.join(macros)}")
        close = _matching_paren(calls_text, j, file, lines)
        for offset, _ in switches[1:]:
            if i < offset <= close:
                raise SourceError(file, lines.line(offset - 1), f"preprocessor line inside the {name} call started at line {lines.line(i)}",
                                  "the importer cannot tell which arguments the condition covers")
        args, arg_lines = split_arguments(calls_text, j + 1, close, lines)
        header.calls.append(Call(name, lines.line(i), args, arg_lines, condition_at(i)))
        i = close + 1
    return header


def _snippet(text: str, offset: int) -> str:
    return text[offset:offset + 30].split("\n", 1)[0].strip()


def _matching_paren(text: str, open_at: int, file: str, lines: Lines) -> int:
    depth = 0
    i = open_at
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = _literal_end(text, i, file)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise SourceError(file, lines.line(open_at), "parenthesis is never closed")


def split_arguments(text: str, start: int, end: int, lines: Lines) -> tuple[list[str], list[int]]:
    """Top-level comma-separated arguments of text[start:end], with the line each starts on."""
    args: list[str] = []
    arg_lines: list[int] = []
    depth = 0
    i = piece_start = start
    while i <= end:
        c = text[i] if i < end else ","
        if c in "\"'" and i < end:
            i = _literal_end(text, i, "")
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            piece = text[piece_start:i]
            stripped = piece.strip()
            lead = len(piece) - len(piece.lstrip())
            args.append(" ".join(stripped.split()) if '"' not in stripped else stripped)
            arg_lines.append(lines.line(piece_start + lead))
            piece_start = i + 1
        i += 1
    return args, arg_lines


def string_value(arg: str) -> str | None:
    """The value of one or more adjacent C string literals, or None when `arg` is not that."""
    pos = 0
    parts = []
    arg = arg.strip()
    if not arg.startswith('"'):
        return None
    while pos < len(arg):
        if arg[pos].isspace():
            pos += 1
            continue
        match = _STRING_LITERAL.match(arg, pos)
        if not match:
            return None
        parts.append(_unescape(match.group(0)[1:-1]))
        pos = match.end()
    return "".join(parts)


def _unescape(body: str) -> str:
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt == "x":
            digits = re.match(r"[0-9a-fA-F]+", body[i + 2:])
            assert digits is not None, "C requires a hex digit after \\x"
            out.append(chr(int(digits.group(0), 16)))
            i += 2 + len(digits.group(0))
        elif nxt in "01234567":
            digits = re.match(r"[0-7]{1,3}", body[i + 1:])
            assert digits is not None  # nxt is an octal digit
            out.append(chr(int(digits.group(0), 8)))
            i += 1 + len(digits.group(0))
        else:
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
    return "".join(out)


def function_body(code: str, name: str, file: str) -> tuple[int, int]:
    """(start, end) offsets of the braces of function `name` in comment-free `code`."""
    match = re.search(rf"\b{re.escape(name)}\s*\(", code)
    if not match:
        raise SourceError(file, 0, f"function {name}() not found", "has the file been reorganised upstream?")
    lines = Lines(code)
    close_args = _matching_paren(code, match.end() - 1, file, lines)
    brace = code.find("{", close_args)
    if brace < 0 or code[close_args + 1:brace].strip():
        raise SourceError(file, lines.line(match.start()), f"cannot find the body of {name}()")
    return brace, matching_brace(code, brace, file, lines)


def matching_brace(code: str, open_at: int, file: str, lines: Lines) -> int:
    depth = 0
    i = open_at
    while i < len(code):
        c = code[i]
        if c in "\"'":
            i = _literal_end(code, i, file)
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise SourceError(file, lines.line(open_at), "brace is never closed")


def matching_paren(code: str, open_at: int, file: str) -> int:
    return _matching_paren(code, open_at, file, Lines(code))
