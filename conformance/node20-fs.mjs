// node:fs plus the globSync of Node.js 22, which only the conformance CLI's tier-check uses.
import fs from 'node:fs';

export * from 'node:fs';
export default fs;

export function globSync() {
	throw new Error('fs.globSync needs Node.js 22 or later (only the tier-check command uses it)');
}
