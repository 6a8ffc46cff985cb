import { Component, type ErrorInfo, type ReactNode } from 'react';

import { InternalError } from './internal-error';

interface State {
  failed: boolean;
}

/** Catches what the router's own error element cannot (errors above or outside the routes). */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Erro não tratado na interface', error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <InternalError /> : this.props.children;
  }
}
