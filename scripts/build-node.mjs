// @ts-check
// `npm run build:node`: builds dist/node (scripts/lib/node-build.mjs) whether or not it is current.
import { buildNode } from './lib/node-build.mjs';

const built = await buildNode();
console.log(`built dist/node: ${built.files} files in ${built.ms} ms`);
