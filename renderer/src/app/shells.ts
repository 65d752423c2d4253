// The pages prerendered into index.html at build time (scripts/prerender.ts) and the paths that show them.
// theme-init.js picks the shell for the path before first paint (from the table in <meta name=vigil-shells>),
// and main.tsx hydrates it. A visitor-only shell is the page as a signed-out visitor in its own tab sees
// it, so it is shown only then (no stored session, no desktop bridge, not framed).
export interface Shell {
  name: string;
  paths: string[];
  visitorOnly: boolean;
}

export const SHELLS: readonly Shell[] = [
  { name: 'landing', paths: ['/', '/home'], visitorOnly: false },
  { name: 'auth', paths: ['/auth'], visitorOnly: true },
];

export const SHELLS_META = 'vigil-shells';
