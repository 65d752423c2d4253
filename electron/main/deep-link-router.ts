import { parseDeepLink, type DeepLinkMessage } from '../../shared/deep-links.ts';

export interface DeepLinkRouterDeps {
  /** Sends the validated message to the renderer (IpcChannel.deepLink). */
  send(message: DeepLinkMessage): void;
  /** Shows and focuses the main window. */
  focus(): void;
  log(message: string): void;
}

/**
 * The one handler for every deep-link source (macOS open-url, the second-instance argv on Windows and Linux,
 * the start-up argv). It validates the link, forwards only the typed message, and never loads the raw URL.
 * Links that arrive before the renderer is ready wait in a short queue.
 */
export function createDeepLinkRouter(deps: DeepLinkRouterDeps) {
  let ready = false;
  const queue: DeepLinkMessage[] = [];
  return {
    handle(raw: unknown): boolean {
      const result = parseDeepLink(raw);
      if (!result.ok) {
        // The reason only: the link itself may carry an auth code.
        deps.log(`refused deep link: ${result.reason}`);
        return false;
      }
      if (ready) {
        deps.send(result.message);
      } else if (queue.length < 5) {
        queue.push(result.message);
      }
      deps.focus();
      return true;
    },
    /** Called once the renderer has loaded and listens for deep links. */
    markReady(): void {
      ready = true;
      for (const m of queue.splice(0)) {
        deps.send(m);
      }
    },
  };
}
