// The chat page of `math-agent serve`: plain JavaScript, no library, no build step.
// Sessions on the left, the conversation in the middle (answers stream in over
// Server-Sent Events), the workspace on the right. Math arrives as MathML from the server.
"use strict";

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "math-agent-token";
const state = { session: null, sent: [], recall: null, busy: false, strategies: [] };

// -- talking to the API -----------------------------------------------------------------
function headers(extra) {
  const token = localStorage.getItem(TOKEN_KEY);
  const all = Object.assign({ "Content-Type": "application/json" }, extra || {});
  if (token) all.Authorization = "Bearer " + token;
  return all;
}

async function askToken() {
  const dialog = $("login");
  dialog.showModal();
  await new Promise((done) => dialog.addEventListener("close", done, { once: true }));
  localStorage.setItem(TOKEN_KEY, $("token").value.trim());
}

async function api(path, options) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const response = await fetch(path, Object.assign({}, options, { headers: headers(options && options.headers) }));
    if (response.status === 401) { await askToken(); continue; }
    return response;
  }
  throw new Error("This service needs a valid token.");
}

async function json(path, options) {
  const response = await api(path, options);
  if (response.status === 204) return null;
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ? body.error.message : response.statusText);
  return body;
}

function say(text) { $("status").textContent = text || ""; }

// -- showing math and messages ----------------------------------------------------------
function mathNode(markup) {
  const parsed = new DOMParser().parseFromString(markup, "application/xml");
  if (parsed.getElementsByTagName("parsererror").length) return document.createTextNode("");
  return document.importNode(parsed.documentElement, true);
}

function fill(element, segments) {
  element.textContent = "";
  for (const piece of segments) {
    element.appendChild(piece.math ? mathNode(piece.math) : document.createTextNode(piece.text));
  }
  return element;
}

function idChip(id) {
  const chip = document.createElement("button");
  chip.type = "button";
  chip.className = "id";
  chip.textContent = id;
  chip.title = "Put " + id + " in your message";
  chip.addEventListener("click", () => insertAtCaret(id));
  return chip;
}

function insertAtCaret(text) {
  const input = $("input");
  const start = input.selectionStart, end = input.selectionEnd;
  const before = input.value.slice(0, start), after = input.value.slice(end);
  const pad = before && !before.endsWith(" ") ? " " : "";
  input.value = before + pad + text + after;
  const caret = (before + pad + text).length;
  input.focus();
  input.setSelectionRange(caret, caret);
}

function bubble(kind, text) {
  const div = document.createElement("div");
  div.className = "msg " + kind;
  if (text !== undefined) div.textContent = text;
  $("messages").appendChild(div);
  div.scrollIntoView({ block: "end" });
  return div;
}

function toolLine(call, result) {
  const line = document.createElement("div");
  line.className = "tool" + (result.ok ? "" : " failed");
  line.appendChild(document.createTextNode((result.ok ? "✓ " : "✗ ") + (call ? call.call : result.tool) + " → "));
  const shown = document.createElement("span");
  fill(shown, result.segments || [{ text: result.text }]);
  line.appendChild(shown);
  if (result.item) { line.appendChild(document.createTextNode(" ")); line.appendChild(idChip(result.item)); }
  $("messages").appendChild(line);
  line.scrollIntoView({ block: "end" });
}

function showEntries(entries) {
  $("messages").textContent = "";
  const calls = {};
  for (const entry of entries) {
    if (entry.kind === "user") bubble("user", entry.text);
    else if (entry.kind === "tool_call") calls[entry.call_id] = entry;
    else if (entry.kind === "tool_result") toolLine(calls[entry.call_id], entry);
    else if (entry.kind === "assistant") fill(bubble("assistant"), entry.segments);
    else if (entry.kind === "error") bubble("error", entry.text);
    else { const note = document.createElement("div"); note.className = "note"; note.textContent = entry.text; $("messages").appendChild(note); }
  }
}

function showWorkspace(workspace) {
  const list = $("items");
  list.textContent = "";
  for (const note of workspace.notes) {
    const li = document.createElement("li"); li.className = "origin"; li.textContent = "note: " + note; list.appendChild(li);
  }
  for (const item of workspace.items) {
    const li = document.createElement("li");
    li.appendChild(idChip(item.id));
    const origin = document.createElement("span");
    origin.className = "origin";
    origin.textContent = " " + item.origin + ": ";
    li.appendChild(origin);
    li.appendChild(fill(document.createElement("span"), item.segments));
    list.appendChild(li);
  }
}

// -- sessions -----------------------------------------------------------------------------
async function loadSessions() {
  const { sessions } = await json("/api/sessions");
  const list = $("session-list");
  list.textContent = "";
  for (const session of sessions) {
    const li = document.createElement("li");
    li.textContent = session.title || session.id;
    li.title = session.id;
    li.tabIndex = 0;
    if (session.id === state.session) li.setAttribute("aria-current", "true");
    li.addEventListener("click", () => openSession(session.id));
    li.addEventListener("keydown", (e) => { if (e.key === "Enter") openSession(session.id); });
    list.appendChild(li);
  }
  return sessions;
}

async function openSession(id) {
  state.session = id;
  history.replaceState(null, "", "#s=" + encodeURIComponent(id));
  localStorage.setItem("math-agent-session", id);
  const [info, transcript, workspace] = await Promise.all([
    json("/api/sessions/" + encodeURIComponent(id)),
    json("/api/sessions/" + encodeURIComponent(id) + "/transcript"),
    json("/api/sessions/" + encodeURIComponent(id) + "/workspace"),
  ]);
  $("title").value = info.title || "";
  $("strategy").value = info.strategy;
  showEntries(transcript.entries);
  showWorkspace(workspace);
  say(info.turns + " turns · tokens in " + info.input_tokens + " · out " + info.output_tokens);
  await loadSessions();
  $("input").focus();
}

async function newSession(title) {
  const created = await json("/api/sessions", { method: "POST", body: JSON.stringify(title ? { title } : {}) });
  await openSession(created.id);
  return created.id;
}

async function refreshWorkspace() {
  if (!state.session) return;
  showWorkspace(await json("/api/sessions/" + encodeURIComponent(state.session) + "/workspace"));
}

// -- a turn ---------------------------------------------------------------------------------
async function* serverEvents(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = "message", data = "";
      for (const line of frame.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      if (data) yield { event, data: JSON.parse(data) };
    }
  }
}

async function send(text) {
  if (state.busy || !text.trim()) return;
  state.sent.push(text);
  state.recall = null;
  if (!state.session) await newSession(text.slice(0, 60));
  state.busy = true;
  $("stop").hidden = false;
  bubble("user", text);
  const key = (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()).replace(/[^A-Za-z0-9-]/g, "");
  say("thinking…");
  const calls = {};
  let answer = null;
  try {
    const response = await api("/api/sessions/" + encodeURIComponent(state.session) + "/messages", {
      method: "POST", body: JSON.stringify({ text }), headers: { "Idempotency-Key": key },
    });
    if (!response.ok) {
      const body = await response.json();
      bubble("error", body.error ? body.error.message : response.statusText);
      say("");
      return;
    }
    for await (const { event, data } of serverEvents(response)) {
      if (event === "queued") say("waiting for the model: " + data.position + " in the queue");
      else if (event === "tool_call") calls[data.call_id] = data;
      else if (event === "tool_result") toolLine(calls[data.call_id], data);
      else if (event === "answer_delta") {
        if (!answer) { answer = bubble("assistant waiting"); answer.textContent = ""; }
        answer.textContent = data.reset ? data.text : answer.textContent + data.text;
        say("answering…");
      } else if (event === "answer") {
        if (!answer) answer = bubble("assistant");
        answer.classList.remove("waiting");
        fill(answer, data.segments);
      } else if (event === "plot") {
        const img = document.createElement("img");
        img.className = "plot"; img.alt = "plot"; img.src = data.image;
        bubble("assistant").appendChild(img);
      } else if (event === "error") {
        if (answer) answer.remove();
        bubble("error", data.message);
      } else if (event === "done") {
        say(data.replayed ? "answered before (not run again)" :
          "tokens in " + (data.input_tokens || 0) + " · out " + (data.output_tokens || 0) +
          " · " + (data.seconds || 0).toFixed(1) + " s");
      }
    }
  } catch (error) {
    bubble("error", String(error.message || error));
  } finally {
    state.busy = false;
    $("stop").hidden = true;
  }
  await refreshWorkspace();
  await loadSessions();
}

// -- keyboard first -------------------------------------------------------------------------
function onKey(event) {
  const input = $("input");
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    const text = input.value;
    input.value = "";
    send(text);
  } else if (event.key === "ArrowUp" && state.sent.length && !input.value.slice(0, input.selectionStart).includes("\n")) {
    event.preventDefault();
    state.recall = state.recall === null ? state.sent.length - 1 : Math.max(0, state.recall - 1);
    input.value = state.sent[state.recall];
  } else if (event.key === "ArrowDown" && state.recall !== null) {
    event.preventDefault();
    state.recall += 1;
    if (state.recall >= state.sent.length) { state.recall = null; input.value = ""; }
    else input.value = state.sent[state.recall];
  }
}

async function start() {
  $("input").addEventListener("keydown", onKey);
  $("composer").addEventListener("submit", (e) => { e.preventDefault(); const t = $("input").value; $("input").value = ""; send(t); });
  $("new-session").addEventListener("click", () => newSession());
  $("stop").addEventListener("click", () => state.session && api("/api/sessions/" + encodeURIComponent(state.session) + "/cancel", { method: "POST" }));
  $("title").addEventListener("change", async () => {
    if (!state.session || !$("title").value.trim()) return;
    await json("/api/sessions/" + encodeURIComponent(state.session), { method: "PATCH", body: JSON.stringify({ title: $("title").value }) });
    await loadSessions();
  });
  $("strategy").addEventListener("change", async () => {
    if (!state.session) return;
    try {
      await json("/api/sessions/" + encodeURIComponent(state.session), { method: "PATCH", body: JSON.stringify({ strategy: $("strategy").value }) });
      say("context strategy: " + $("strategy").value);
    } catch (error) { say(error.message); }
  });
  $("export").addEventListener("click", async () => {
    if (!state.session) return;
    const response = await api("/api/sessions/" + encodeURIComponent(state.session) + "/export.md");
    const link = document.createElement("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = state.session + ".md";
    link.click();
  });
  $("delete").addEventListener("click", async () => {
    if (!state.session || !confirm("Delete this session and everything in it?")) return;
    await json("/api/sessions/" + encodeURIComponent(state.session), { method: "DELETE" });
    state.session = null;
    history.replaceState(null, "", "#");
    $("messages").textContent = ""; $("items").textContent = ""; $("title").value = "";
    await loadSessions();
  });
  const { strategies, default: chosen } = await json("/api/strategies");
  for (const name of strategies) {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    $("strategy").appendChild(option);
  }
  $("strategy").value = chosen;
  const sessions = await loadSessions();
  const wanted = decodeURIComponent((location.hash.match(/^#s=(.+)$/) || [])[1] || "") || localStorage.getItem("math-agent-session");
  if (wanted && sessions.some((s) => s.id === wanted)) await openSession(wanted);
}

start().catch((error) => say(String(error.message || error)));
