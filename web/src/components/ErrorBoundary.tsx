import { Component, type ReactNode } from "react";
import { Navigate } from "react-router";
import { apiErrorOf } from "../lib/errors";
import { paths } from "../app/paths";
import { ErrorMessage } from "./ErrorMessage";

interface Props {
  children: ReactNode;
  /** Where the error happened, for the heading ("Could not load the videos"). */
  what?: string;
  /** Handles an error by itself (e.g. forgets a stale choice) and answers true: the children are tried again. */
  recover?: (error: unknown) => boolean;
}

/**
 * Catches what a page's query threw (Relay suspends, then throws the network's ApiError): shows it
 * in words with a retry, and sends a signed-out person to the sign-in page.
 */
export class ErrorBoundary extends Component<Props, { error: unknown; attempt: number }> {
  state = { error: null as unknown, attempt: 0 };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  componentDidCatch(error: unknown) {
    if (this.props.recover?.(error)) this.setState(({ attempt }) => ({ error: null, attempt: attempt + 1 }));
  }

  render() {
    const { error, attempt } = this.state;
    if (!error) return <RetryKey key={attempt}>{this.props.children}</RetryKey>;
    if (apiErrorOf(error)?.code === "UNAUTHORIZED") {
      return <Navigate to={paths.signIn(window.location.pathname + window.location.search)} replace />;
    }
    return <ErrorMessage error={error} title={`Could not load ${this.props.what ?? "this page"}`} onRetry={() => this.setState({ error: null, attempt: attempt + 1 })} />;
  }
}

/** Remounts the children on retry, so their query runs again. */
function RetryKey({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
