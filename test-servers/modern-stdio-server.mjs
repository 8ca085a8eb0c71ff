// A TypeScript SDK v2 MCP server over stdio.
//   node modern-stdio-server.mjs [--legacy=serve|reject]
// --legacy=serve (the default) serves 2025-11-25 and 2026-07-28; --legacy=reject serves
// 2026-07-28 only and answers `initialize` with "Unsupported protocol version".
// MCP_LEGACY=serve|reject does the same as the option. It exits when its stdin closes.
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createServer } from './modern-tools.mjs';

const option = process.argv.slice(2).find((arg) => arg.startsWith('--legacy='));
const legacy = option?.substring('--legacy='.length) ?? process.env.MCP_LEGACY ?? 'serve';
if (legacy !== 'serve' && legacy !== 'reject') {
	console.error(`--legacy must be serve or reject, not ${legacy}`);
	process.exit(2);
}

let crashing = false;

// `crash` exits once its reply is on stdout, so that the client reads it before EOF
class CrashingTransport extends StdioServerTransport {
	async send(message, options) {
		await super.send(message, options);
		if (crashing && message.id !== undefined && ('result' in message || 'error' in message)) {
			process.stdout.write('', () => process.exit(3));
		}
	}
}

serveStdio(({ era }) => createServer({
	era,
	onCrash: () => {
		crashing = true;
	},
	// registering a tool on a connected instance sends notifications/tools/list_changed,
	// which serveStdio routes onto the open subscriptions/listen streams
	onToolsChanged: () => {}
}), { legacy, transport: new CrashingTransport(), onerror: (error) => console.error(error.message) });
console.error(`modern stdio server (legacy: ${legacy}) pid ${process.pid}`);
