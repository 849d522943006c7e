// A koloda protocol client in plain Node.js (>= 18): over a `koloda serve` child process
// (one JSON line each way) or over HTTP (one POST per request, with the built-in fetch).
// A server started with a token needs it: Client.http(url, { token }), by default the
// url's `#token=` or $KOLODA_TOKEN.
"use strict";

const { spawn } = require("node:child_process");
const readline = require("node:readline");

class ProtocolError extends Error {
  constructor(reply) {
    super(`${reply.error.code}: ${reply.error.message}`);
    this.code = reply.error.code;
    this.reply = reply;
  }
}

class StdioTransport {
  constructor(command, args) {
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
    this.waiting = [];
    this.lines = readline.createInterface({ input: this.child.stdout });
    this.lines.on("line", (line) => {
      const next = this.waiting.shift();
      if (next) next.resolve(JSON.parse(line));
    });
    this.child.on("exit", (code) => {
      for (const next of this.waiting.splice(0)) {
        next.reject(new Error(`koloda serve exited with ${code}`));
      }
    });
  }

  exchange(text) {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.child.stdin.write(text + "\n");
    });
  }

  async close() {
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.stdin.end();
    return exited;
  }
}

class HttpTransport {
  constructor(url, token) {
    const address = new URL(url);
    token = token || new URLSearchParams(address.hash.slice(1).replace(/\+/g, "%2B")).get("token") || process.env.KOLODA_TOKEN;
    address.hash = "";
    this.url = address.href;
    this.headers = { "Content-Type": "application/json" };
    if (token) this.headers.Authorization = `Bearer ${token}`;
    this.lastStatus = null;
  }

  async exchange(text) {
    const response = await fetch(this.url, { method: "POST", headers: this.headers, body: text });
    this.lastStatus = response.status;
    return response.json();
  }

  async close() {}
}

class Client {
  constructor(transport) {
    this.transport = transport;
    this.nextId = 0;
  }

  static stdio(command, args) {
    return new Client(new StdioTransport(command, args));
  }

  static http(url, { token } = {}) {
    return new Client(new HttpTransport(url, token));
  }

  sendText(text) {
    return this.transport.exchange(text);
  }

  // One request; resolves to the reply, rejects with ProtocolError on an error reply.
  async request(type, fields = {}) {
    const id = ++this.nextId;
    const reply = await this.sendText(JSON.stringify({ id, type, ...fields }));
    if (reply.id !== id) throw new Error(`reply ${reply.id} to request ${id}`);
    if (!reply.ok) throw new ProtocolError(reply);
    return reply;
  }

  close() {
    return this.transport.close();
  }
}

module.exports = { Client, ProtocolError };
