import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from 'antd';
import { getAppConfig } from '../../config';
import { reportError } from '../../monitoring/sentry';
import { ChunkLoadError, isChunkLoadError } from './lazyWithRetry';
import { ErrorResult } from './ErrorResult';

/** The default landing page (spec §9), relative to the base path. */
export const HOME_PATH = '/mine/home';

export interface ErrorBoundaryProps {
  children?: ReactNode;
  /** When any of these change (e.g. the route path), a shown error is cleared. */
  resetKeys?: readonly unknown[];
  /** Where 返回首页 goes; default the base path + 'mine/home'. */
  homeHref?: string;
  /** Called after 重试 clears the error. */
  onReset?: () => void;
  /** Full page reload (tests replace it). */
  reload?: () => void;
}

interface State {
  error?: Error;
  retrying: boolean;
}

function defaultHomeHref(): string {
  return `${getAppConfig().basePath}${HOME_PATH.slice(1)}`;
}

/** Wraps every page: a render error shows 页面出错了, a failed page chunk shows 页面资源加载失败. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  state: State = { retrying: false };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)), retrying: false };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    reportError(error, { componentStack: info.componentStack ?? undefined, chunk: isChunkLoadError(error) });
  }

  componentDidUpdate(prev: ErrorBoundaryProps) {
    if (!this.state.error) return;
    const a = prev.resetKeys ?? [];
    const b = this.props.resetKeys ?? [];
    if (a.length !== b.length || a.some((k, i) => !Object.is(k, b[i]))) this.setState({ error: undefined, retrying: false });
  }

  reset = () => {
    this.setState({ error: undefined, retrying: false });
    this.props.onReset?.();
  };

  private reload = () => (this.props.reload ?? (() => window.location.reload()))();

  /** Retries the import of the failed chunk; a second failure (or no way to retry) reloads the page. */
  retryChunk = async () => {
    const err = this.state.error;
    const retry = err instanceof ChunkLoadError ? err.retry : undefined;
    if (!retry) return this.reload();
    this.setState({ retrying: true });
    try {
      await retry();
      this.reset();
    } catch {
      this.reload();
    }
  };

  goHome = () => {
    window.location.assign(this.props.homeHref ?? defaultHomeHref());
  };

  render() {
    const { error, retrying } = this.state;
    if (!error) return this.props.children;
    if (isChunkLoadError(error)) {
      return (
        <ErrorResult
          status="warning"
          title="页面资源加载失败"
          subTitle="网络不稳定或系统已更新，请重新加载后再试。"
          extra={
            <Button type="primary" loading={retrying} onClick={() => void this.retryChunk()}>
              重新加载
            </Button>
          }
        />
      );
    }
    return (
      <ErrorResult
        status="error"
        title="页面出错了"
        subTitle="抱歉，页面发生了意外错误，您可以重试或返回首页。"
        extra={[
          <Button key="retry" type="primary" onClick={this.reset}>
            重试
          </Button>,
          <Button key="home" onClick={this.goHome}>
            返回首页
          </Button>,
        ]}
      />
    );
  }
}
