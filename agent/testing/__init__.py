"""The one scripted model that tests and the benchmark talk to, and reply builders.

- `scripted.ScriptedModel`: replies per LLM function from queues or handlers, over HTTP
  (`scripted_agent`, `scripted_server`) or in process (`in_process.InProcessModel`);
- `replies`: the replies a model writes (tool calls, answers, summaries, user facts).
"""
