"""README.md stays short, and every command it names exists.

`make` targets are read from the Makefile, `math-agent` subcommands and flags from the argparse
parser in agent/app/cli.py (nothing is listed here by hand). Only code (inline `...` spans
and fenced blocks) is read, so prose like "make sure" is never taken for a command.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from agent.app.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MAX_BYTES = 12 * 1024


def code_spans(text: str) -> list[str]:
    fenced = re.findall(r"```[^\n]*\n(.*?)```", text, flags=re.S)
    rest = re.sub(r"```.*?```", "", text, flags=re.S)
    return [*fenced, *re.findall(r"`([^`\n]+)`", rest)]


def make_targets() -> set[str]:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Za-z][\w-]*)\s*:(?!=)", makefile, flags=re.M))


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(commands.choices)


def options(parser: argparse.ArgumentParser) -> set[str]:
    return {flag for action in parser._actions for flag in action.option_strings}


def test_readme_is_at_most_12_kb() -> None:
    size = len(README.read_bytes())
    assert size <= MAX_BYTES, f"README.md is {size} bytes; move detail to docs/"


def test_every_make_target_named_exists() -> None:
    named = {
        target
        for span in code_spans(README.read_text(encoding="utf-8"))
        for target in re.findall(r"(?:^|[\s;(&|])make\s+([a-z][\w-]*)", span, flags=re.M)
    }
    assert {"chat", "test"} <= named  # the two commands are there
    assert named - make_targets() == set()


def test_every_math_agent_subcommand_and_flag_named_exists() -> None:
    commands = subcommands()
    every_flag = set().union(*(options(p) for p in commands.values()))
    unknown = []
    named_commands = set()
    for span in code_spans(README.read_text(encoding="utf-8")):
        for line in span.splitlines():
            invocation = re.search(r"math-agent\s+([a-z][\w-]*)(.*)", line)
            if invocation:
                command, rest = invocation[1], invocation[2].split("#")[0]
                named_commands.add(command)
                if command not in commands:
                    unknown.append(f"math-agent {command}")
                    continue
                # eval, bench and doctor parse their own options; chat and ask declare theirs.
                flags = set(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", rest))
                if options(commands[command]) - {"-h", "--help"}:
                    unknown += [
                        f"math-agent {command} {f}" for f in flags - options(commands[command])
                    ]
                continue
            if span.startswith("--") or line.lstrip().startswith("--"):
                for flag in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", line):
                    if flag not in every_flag:
                        unknown.append(flag)
    assert "chat" in named_commands
    assert unknown == []


def test_the_checks_catch_what_does_not_exist() -> None:
    assert "no-such-target" not in make_targets() and "test" in make_targets()
    assert "--no-such-flag" not in options(subcommands()["chat"])
    assert "--strategy" in options(subcommands()["chat"])


def test_every_file_the_readme_links_to_exists() -> None:
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    local = [link for link in links if "://" not in link]
    assert local and [link for link in local if not (ROOT / link).exists()] == []
