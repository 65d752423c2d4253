import { startStack } from './stack.ts';

/** Runs the embedded stack until interrupted. Used by `npm start` (scripts/start.ts) and `npm run stack`. */
export async function runStack(): Promise<Awaited<ReturnType<typeof startStack>>> {
  const stack = await startStack();
  const stop = async () => {
    await stack.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  return stack;
}
