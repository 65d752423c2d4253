// Catches render errors outside the router (providers, start-up) and hands them to the crash screen.
import { Component, type ReactNode } from 'react';

import { CrashScreen } from './crash-screen.tsx';

export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render(): ReactNode {
    if (this.state.error) {
      return <CrashScreen error={this.state.error} component="app" />;
    }
    return this.props.children;
  }
}
