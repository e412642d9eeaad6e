import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Result } from 'antd';

interface State {
  error?: Error;
}

/** Catches render errors below it and shows a Chinese error page instead of a blank screen. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = {};

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.warn('page crashed', error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <Result
        status="error"
        title="页面出错了"
        subTitle="页面加载时发生错误，请刷新后重试；如果问题持续，请联系客服。"
        extra={<Button onClick={() => window.location.reload()}>刷新页面</Button>}
        data-testid="error-boundary"
      />
    );
  }
}
