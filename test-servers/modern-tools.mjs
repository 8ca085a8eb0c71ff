// The tools of the TypeScript SDK v2 test servers (modern-stdio-server.mjs and
// modern-http-server.mjs), registered on every instance their factory builds.
import { McpServer, acceptedContent, fromJsonSchema, inputRequired, inputResponse } from '@modelcontextprotocol/server';

const NAME_STATE = 'ask-name:1';

/** Tools added at run time by `add-tool`, kept for every instance built afterwards. */
const addedTools = [];

function text(value) {
	return { content: [{ type: 'text', text: String(value) }] };
}

function schema(properties, required = Object.keys(properties)) {
	return fromJsonSchema({ type: 'object', properties, required });
}

function registerAdded(server, name) {
	server.registerTool(name, { description: `Added at run time: echoes its message`,
		inputSchema: schema({ message: { type: 'string' } }) }, ({ message }) => text(`${name}: ${message}`));
}

/**
 * Builds one server instance.
 * @param options.era the era the instance serves ('legacy' or 'modern')
 * @param options.onCrash called with the tool context when `crash` has produced its reply
 * @param options.onToolsChanged called after `add-tool` changed the tool list
 */
export function createServer({ era, onCrash, onToolsChanged }) {
	const server = new McpServer({ name: 'modern-test-server', version: '1.0.0' },
		{ capabilities: { tools: { listChanged: true }, logging: {} } });
	server.registerTool('echo', { description: 'Echoes back the input',
		inputSchema: schema({ message: { type: 'string' } }) }, ({ message }) => text(`Echo: ${message}`));
	server.registerTool('get-sum', { description: 'Returns the sum of two numbers',
		inputSchema: schema({ a: { type: 'number' }, b: { type: 'number' } }) },
		({ a, b }) => text(`The sum of ${a} and ${b} is ${a + b}.`));
	server.registerTool('slow', { description: 'Answers after sleeping the given milliseconds',
		inputSchema: schema({ ms: { type: 'integer', minimum: 0 } }) },
		async ({ ms }) => {
			console.error('call started: slow'); // what a test waits for, as with the demo server
			await new Promise((resolve) => setTimeout(resolve, ms));
			return text(`slept ${ms} ms`);
		});
	server.registerTool('pid', { description: 'Returns the process id of the server' },
		() => text(process.pid));
	server.registerTool('crash', { description: 'Replies, then the server process exits with code 3' },
		(ctx) => {
			onCrash(ctx);
			return text(`pid ${process.pid} exits`);
		});
	server.registerTool('ask-name', { description: 'Asks the user for a name by a form elicitation, then greets them' },
		async (ctx) => {
			const requestedSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
			const message = 'What is your name?';
			if (era === 'legacy') {
				const answer = await ctx.mcpReq.elicitInput({ mode: 'form', message, requestedSchema });
				return answer.action === 'accept' ? text(`Hello, ${answer.content.name}!`) : text(`No name: ${answer.action}`);
			}
			const answer = acceptedContent(ctx.mcpReq.inputResponses, 'name');
			if (answer === undefined || ctx.mcpReq.requestState() !== NAME_STATE) {
				return inputRequired({ inputRequests: { name: inputRequired.elicit({ message, requestedSchema }) },
					requestState: NAME_STATE });
			}
			return text(`Hello, ${answer.name}!`);
		});
	// input requests of the two other kinds, for 2025-11-25 clients fulfilled by the
	// SDK's shim as requests of the server
	server.registerTool('ask-model', { description: 'Asks the client\'s model to complete a sentence (sampling)' },
		(ctx) => {
			const answer = inputResponse(ctx.mcpReq.inputResponses, 'completion');
			if (answer.kind !== 'sampling') {
				return inputRequired({ inputRequests: { completion: inputRequired.createMessage({
					messages: [{ role: 'user', content: { type: 'text', text: 'Complete: roses are' } }],
					maxTokens: 1000000 }) } });
			}
			return text(`The model says: ${answer.result.content.text}`);
		});
	server.registerTool('list-roots', { description: 'Lists the roots the client offers' },
		(ctx) => {
			const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
			if (answer.kind !== 'roots') {
				return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
			}
			return text(`Roots: ${answer.roots.map((root) => root.uri).join(', ')}`);
		});
	server.registerTool('log', { description: 'Logs the message at every level from debug to error, then answers',
		inputSchema: schema({ message: { type: 'string' } }) },
		async ({ message }, ctx) => {
			for (const level of ['debug', 'info', 'warning', 'error']) {
				await ctx.mcpReq.log(level, `${level}: ${message}`, 'log-tool');
			}
			return text(`logged ${message}`);
		});
	server.registerTool('tenant-echo', { description: 'Echoes the tenant, mirrored into the Mcp-Param-Tenant header',
		inputSchema: schema({ tenant: { type: 'string', 'x-mcp-header': 'Tenant' }, message: { type: 'string' } }) },
		({ tenant, message }, ctx) => {
			const header = ctx.http?.req?.headers.get('mcp-param-tenant');
			return text(`${tenant}: ${message}` + (header == null ? '' : ` (header ${header})`));
		});
	server.registerTool('add-tool', { description: 'Adds a tool of the given name that echoes its message',
		inputSchema: schema({ name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' } }) },
		({ name }) => {
			if (addedTools.includes(name)) {
				return text(`${name} exists`);
			}
			addedTools.push(name);
			registerAdded(server, name);
			onToolsChanged();
			return text(`added ${name}`);
		});
	for (const name of addedTools) {
		registerAdded(server, name);
	}
	return server;
}
