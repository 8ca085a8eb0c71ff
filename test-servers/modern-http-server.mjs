// A TypeScript SDK v2 MCP server over stateless Streamable HTTP on 127.0.0.1.
//   node modern-http-server.mjs [port] [--legacy=stateless|reject]
// The port defaults to 0 (any free port); the server prints "listening on <port>" on
// stderr once it accepts connections. --legacy=stateless (the default) also serves
// 2025-11-25 statelessly; --legacy=reject serves 2026-07-28 only (MCP_LEGACY does the
// same as the option). It serves /mcp and exits when its stdin closes.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer as createHttpServer } from 'node:http';
import { Readable } from 'node:stream';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createServer } from './modern-tools.mjs';

const args = process.argv.slice(2);
const option = args.find((arg) => arg.startsWith('--legacy='));
const legacy = option?.substring('--legacy='.length) ?? process.env.MCP_LEGACY ?? 'stateless';
const port = Number(args.find((arg) => !arg.startsWith('--')) ?? process.env.PORT ?? 0);
if ((legacy !== 'stateless' && legacy !== 'reject') || !Number.isInteger(port)) {
	console.error('usage: modern-http-server.mjs [port] [--legacy=stateless|reject]');
	process.exit(2);
}

// per HTTP exchange: whether its reply ends the process (the `crash` tool)
const exchange = new AsyncLocalStorage();

const handler = createMcpHandler(({ era }) => createServer({
	era,
	onCrash: () => {
		exchange.getStore().crash = true;
	},
	onToolsChanged: () => handler.notify.toolsChanged()
}), { legacy, onerror: (error) => console.error(error.message) });

function toWebRequest(req) {
	const headers = new Headers();
	for (const [name, value] of Object.entries(req.headers)) {
		for (const each of Array.isArray(value) ? value : [value]) {
			headers.append(name, each);
		}
	}
	const controller = new AbortController();
	req.socket.once('close', () => controller.abort());
	const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
	return new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url}`, {
		method: req.method,
		headers,
		body: hasBody ? Readable.toWeb(req) : undefined,
		duplex: hasBody ? 'half' : undefined,
		signal: controller.signal
	});
}

const server = createHttpServer(async (req, res) => {
	if (!req.url.startsWith('/mcp')) {
		res.writeHead(404).end();
		return;
	}
	const state = { crash: false };
	res.once('finish', () => {
		if (state.crash) {
			process.exit(3);
		}
	});
	try {
		const response = await exchange.run(state, () => handler.fetch(toWebRequest(req)));
		res.writeHead(response.status, Object.fromEntries(response.headers));
		if (response.body === null) {
			res.end();
		}
		else {
			Readable.fromWeb(response.body).on('error', () => res.destroy()).pipe(res);
		}
	}
	catch (error) {
		console.error(error);
		if (!res.headersSent) {
			res.writeHead(500);
		}
		res.end();
	}
});

server.listen(port, '127.0.0.1', () => {
	console.error(`listening on ${server.address().port}`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.on('close', () => process.exit(0));
process.stdin.resume();
