import { ConfigError } from '../../config/config-error.ts';

/** Shown when the runtime config is missing or invalid: a readable list instead of a blank page. */
export function ConfigProblem({ error }: { error: unknown }) {
  const problems =
    error instanceof ConfigError ? error.problems : [error instanceof Error ? error.message : String(error)];
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div role="alert" className="max-w-lg space-y-3 rounded-lg border bg-card p-6">
        <h1 className="text-xl font-semibold">Vigil cannot start</h1>
        <p className="text-muted-foreground">The app could not load its configuration:</p>
        <ul className="list-disc pl-5 text-sm">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      </div>
    </main>
  );
}
