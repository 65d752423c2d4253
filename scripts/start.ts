// `npm start`: the embedded stack with the web app, on http://127.0.0.1:54321 by default.
import { runStack } from '../server/main.ts';

const started = performance.now();
const stack = await runStack();
console.log(`Vigil is running at ${stack.url}  (started in ${Math.round(performance.now() - started)} ms)`);
console.log(`  database   ${stack.status.db}`);
console.log(`  mail       ${stack.status.mail_url}`);
console.log(`  status     npm run stack:status -- --json`);
