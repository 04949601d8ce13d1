"""What one process builds once and every front shares: the provider and its servers, the
model client factory, the tool worker pool, the embedded server's slots and the session store
(`process`); and the one-conversation view the REPL, `ask`, `eval` and `doctor` use
(`single`). The HTTP service opens many conversations from the same `ProcessRuntime`."""
