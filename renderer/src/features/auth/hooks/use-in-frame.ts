/** True when the page runs inside a frame (an editor preview or a third-party embed). */
export function isInFrame(): boolean {
  // Prerendering at build time (no window): /auth is prerendered as it looks in its own tab.
  if (typeof window === 'undefined') {
    return false;
  }
  try {
    return window.self !== window.top;
  } catch {
    // Cross-origin parents refuse access to window.top: that itself proves we are framed.
    return true;
  }
}
