// Drives the TypeScript SDK v2 test servers with the SDK's own v2 client, as a check that
// they work (not run by the build): node check-modern-servers.mjs
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import assert from 'node:assert/strict';

const here = new URL('.', import.meta.url).pathname;

function newClient(mode) {
	const client = new Client({ name: 'check', version: '1.0.0' },
		{ capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } });
	client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }));
	return client;
}

function textOf(result) {
	return result.content.map((block) => block.text).join('');
}

async function exercise(label, client, { modern, http }) {
	const started = Date.now();
	const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
	assert.deepEqual(tools, ['add-tool', 'ask-name', 'crash', 'echo', 'get-sum', 'pid', 'slow', 'tenant-echo']);
	assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { message: 'hi' } })), 'Echo: hi');
	assert.equal(textOf(await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } })), 'The sum of 2 and 3 is 5.');
	assert.equal(textOf(await client.callTool({ name: 'slow', arguments: { ms: 100 } })), 'slept 100 ms');
	const pid = textOf(await client.callTool({ name: 'pid', arguments: {} }));
	// a stateless 2025-11-25 server has no session to carry an elicitation request back
	const named = await client.callTool({ name: 'ask-name', arguments: {} });
	assert.equal(textOf(named), http && !modern ? 'Client does not support form elicitation.' : 'Hello, Ada!');
	const tenant = textOf(await client.callTool({ name: 'tenant-echo', arguments: { tenant: 'acme', message: 'm' } }));
	assert.equal(tenant, 'acme: m' + (http && modern ? ' (header acme)' : ''));
	let changed;
	const toolsChanged = new Promise((resolve) => {
		changed = resolve;
	});
	client.setNotificationHandler('notifications/tools/list_changed', () => changed());
	const subscription = modern ? await client.listen({ toolsListChanged: true }) : undefined;
	const added = `added-${Date.now()}`;
	await client.callTool({ name: 'add-tool', arguments: { name: added } });
	if (!http || modern) {
		await toolsChanged;
	}
	const after = (await client.listTools({}, { cacheMode: 'refresh' })).tools.map((tool) => tool.name);
	assert.ok(after.includes(added), `${added} listed`);
	await subscription?.close();
	const crash = textOf(await client.callTool({ name: 'crash', arguments: {} }));
	console.log(`${label}: protocol ${client.getNegotiatedProtocolVersion?.() ?? '?'}, ${tools.length} tools,`
		+ ` pid ${pid}, tenant "${tenant}", ${added} ${!http || modern ? 'announced' : 'listed'}${subscription ? ' on subscriptions/listen' : ''},`
		+ ` crash "${crash}", ${Date.now() - started} ms`);
	return pid;
}

async function stdio(label, legacy, mode) {
	const transport = new StdioClientTransport({ command: 'node',
		args: [`${here}modern-stdio-server.mjs`, `--legacy=${legacy}`], stderr: 'ignore' });
	const client = newClient(mode);
	await client.connect(transport);
	const closed = new Promise((resolve) => {
		client.onclose = resolve;
	});
	const pid = Number(await exercise(label, client, { modern: mode !== 'legacy', http: false }));
	await closed;
	assert.throws(() => process.kill(pid, 0), `stdio server ${pid} exited after crash`);
}

function listeningPort(child) {
	return new Promise((resolve, reject) => {
		let output = '';
		child.stderr.setEncoding('utf8').on('data', (chunk) => {
			output += chunk;
			const match = /listening on (\d+)/.exec(output);
			if (match) {
				resolve(match[1]);
			}
		});
		child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
	});
}

async function http(label, legacy, mode) {
	const child = spawn('node', [`${here}modern-http-server.mjs`, '0', `--legacy=${legacy}`],
		{ stdio: ['pipe', 'ignore', 'pipe'] });
	const port = await listeningPort(child);
	const client = newClient(mode);
	await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
	const exited = once(child, 'exit');
	await exercise(`${label} on port ${port}`, client, { modern: mode !== 'legacy', http: true });
	const [code] = await exited;
	assert.equal(code, 3);
	await client.close();
}

async function httpExitsWithStdin() {
	const child = spawn('node', [`${here}modern-http-server.mjs`], { stdio: ['pipe', 'ignore', 'pipe'] });
	await listeningPort(child);
	const exited = once(child, 'exit');
	child.stdin.end();
	const [code] = await exited;
	console.log(`http server exits when its stdin closes: code ${code}`);
}

async function rejects(legacy) {
	const transport = new StdioClientTransport({ command: 'node',
		args: [`${here}modern-stdio-server.mjs`, `--legacy=${legacy}`], stderr: 'ignore' });
	const client = newClient('legacy');
	try {
		await client.connect(transport);
		assert.fail('initialize accepted');
	}
	catch (error) {
		console.log(`stdio --legacy=${legacy}, 2025-11-25 client: ${error.message}`);
	}
	await transport.close();
}

await stdio('stdio --legacy=reject, auto client', 'reject', 'auto');
await stdio('stdio --legacy=serve, auto client', 'serve', 'auto');
await stdio('stdio --legacy=serve, 2025-11-25 client', 'serve', 'legacy');
await rejects('reject');
await http('http --legacy=reject, auto client', 'reject', 'auto');
await http('http --legacy=stateless, auto client', 'stateless', 'auto');
await http('http --legacy=stateless, 2025-11-25 client', 'stateless', 'legacy');
await httpExitsWithStdin();
