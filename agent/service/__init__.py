"""`math-agent serve`: the HTTP front (FastAPI on uvicorn) and the chat page, over the same
process runtime, agent loop and session store as the REPL (docs/service.md)."""
