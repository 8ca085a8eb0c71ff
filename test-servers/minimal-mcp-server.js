#!/usr/bin/env node
// A minimal stdio MCP server without dependencies: it starts in tens of milliseconds, so
// that what a client adds to starting many servers is not hidden behind their start-up.
// It answers initialize, ping, tools/list (one tool, echo) and tools/call, and exits when
// its stdin ends. Its first argument, if any, is the name it announces.
// For the tests that watch how servers start: MCP_START_LOG names a file to which it
// appends "start <pid> <ms>" as it starts and "initialized <pid> <ms>" as it answers
// initialize (wall-clock milliseconds with a fraction); MCP_INITIALIZE_DELAY_MS delays
// that answer, as a server that takes its time to start does.
'use strict';

const fs = require('node:fs');
const readline = require('node:readline');

const startLog = process.env.MCP_START_LOG;
const initializeDelay = Number(process.env.MCP_INITIALIZE_DELAY_MS || 0);

function logStart(event) {
  if (startLog) {
    const now = performance.timeOrigin + performance.now();
    fs.appendFileSync(startLog, `${event} ${process.pid} ${now.toFixed(3)}\n`);
  }
}

logStart('start');

const tools = [{
  name: 'echo',
  description: 'Returns its message',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
}];

function reply(id, result) {
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n');
}

function fail(id, code, message) {
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }) + '\n');
}

function handle(request) {
  switch (request.method) {
    case 'initialize': {
      const answer = () => {
        logStart('initialized');
        reply(request.id, {
          protocolVersion: request.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: process.argv[2] || 'minimal-mcp-server', version: '1.0.0' },
        });
      };
      return (initializeDelay > 0) ? setTimeout(answer, initializeDelay) : answer();
    }
    case 'ping':
      return reply(request.id, {});
    case 'tools/list':
      return reply(request.id, { tools });
    case 'tools/call': {
      const message = String((request.params.arguments || {}).message);
      return reply(request.id, { content: [{ type: 'text', text: message }], isError: false });
    }
    default:
      return fail(request.id, -32601, 'Method not found: ' + request.method);
  }
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (!line.trim()) {
    return;
  }
  let message;
  try {
    message = JSON.parse(line);
  }
  catch (error) {
    return fail(null, -32700, 'Parse error');
  }
  if (message.id !== undefined && message.method) {
    handle(message);
  }
});
lines.on('close', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
