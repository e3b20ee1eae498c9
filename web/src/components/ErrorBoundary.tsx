import { Component, type ReactNode } from "react";
import { Navigate, useRevalidator } from "react-router";
import { forgetSignedIn } from "../lib/auth";
import { apiErrorOf } from "../lib/errors";
import { paths } from "../lib/paths";
import { ErrorMessage } from "./ErrorMessage";

interface Props {
  children: ReactNode;
  /** Where the error happened, for the heading ("Could not load the videos"). */
  what?: string;
  /**
   * When it changes (the path), a shown error is cleared and the children are tried again. The
   * children are not remounted for it: a page that stays (a form's text) keeps its state.
   */
  resetKey?: string;
}

/**
 * Catches what a page's query threw (usePreloadedQuery throws the network's ApiError): shows it in
 * words with a retry (the route's queries are loaded again), and sends a signed-out person to the
 * sign-in page.
 */
export function ErrorBoundary(props: Props) {
  const { revalidate } = useRevalidator();
  return <Boundary {...props} reload={revalidate} />;
}

class Boundary extends Component<Props & { reload: () => Promise<void> }, { error: unknown; attempt: number; resetKey?: string }> {
  state = { error: null as unknown, attempt: 0, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(
    props: Props & { reload: () => Promise<void> },
    state: { error: unknown; attempt: number; resetKey?: string },
  ) {
    if (props.resetKey === state.resetKey) return null;
    return { resetKey: props.resetKey, error: null, attempt: state.error ? state.attempt + 1 : state.attempt };
  }

  componentDidCatch(error: unknown) {
    // The session has ended: the next visit goes to the sign-in page without asking first.
    if (apiErrorOf(error)?.code === "UNAUTHORIZED") forgetSignedIn();
  }

  render() {
    const { error, attempt } = this.state;
    if (!error) return <RetryKey key={attempt}>{this.props.children}</RetryKey>;
    if (apiErrorOf(error)?.code === "UNAUTHORIZED") {
      return <Navigate to={paths.signIn(window.location.pathname + window.location.search)} replace />;
    }
    return (
      <ErrorMessage
        error={error}
        title={`Could not load ${this.props.what ?? "this page"}`}
        onRetry={() => void this.props.reload().then(() => this.setState({ error: null, attempt: attempt + 1 }))}
      />
    );
  }
}

/** Remounts the children on retry, with the queries loaded again. */
function RetryKey({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
