// Lets the conformance CLI load on Node.js 20: it imports fs.globSync (Node.js 22), which
// only its tier-check command uses. Loaded with `node --import ./node20-shim.mjs`.
import { register } from 'node:module';
import fs from 'node:fs';

if (typeof fs.globSync !== 'function') {
	register('./node20-fs-hooks.mjs', import.meta.url);
}
