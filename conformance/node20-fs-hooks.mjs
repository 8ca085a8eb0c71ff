// Module hooks registered by node20-shim.mjs: the conformance package's `fs` is node:fs
// with a globSync that says what it needs.
const FS_WITH_GLOB = new URL('./node20-fs.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
	if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
		return { url: FS_WITH_GLOB, shortCircuit: true };
	}
	return nextResolve(specifier, context);
}
