import { Component, type ReactNode } from 'react';

import { describeChunkError, reportChunkFailure, type ChunkFailure } from '../lib/chunk-error';
import { pageHref } from '../lib/page-href';

const REASONS: Record<ChunkFailure['reason'], string> = {
  load: '网络错误',
  timeout: '加载超时',
  missing: '文件缺失',
};

interface Props {
  children: ReactNode;
  onRetry: () => void;
}

interface State {
  error: unknown;
}

/** Catches a page that fails to load or render and offers to try again. */
export class PageErrorBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  componentDidCatch(error: unknown) {
    const chunk = describeChunkError(error);
    if (chunk) reportChunkFailure(chunk);
    else console.error('[portal] page error', error);
  }

  retry = () => {
    this.setState({ error: null });
    this.props.onRetry();
  };

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk = describeChunkError(error);
    return (
      <section className="error-panel" role="alert">
        <h1>{chunk ? '页面加载失败' : '页面出错了'}</h1>
        <p>
          {chunk
            ? `${chunk.css ? '样式文件' : '页面文件'}未能加载（${REASONS[chunk.reason]}），请检查网络后重试。`
            : '页面显示时出现问题，请重试或返回首页。'}
        </p>
        {chunk && (
          <p className="error-panel__detail">
            错误信息：{chunk.css ? 'CSS chunk' : 'chunk'} {chunk.chunkId}，原因 {chunk.reason}
          </p>
        )}
        <p className="error-panel__actions">
          <button type="button" className="button" onClick={this.retry}>
            重新加载
          </button>
          <a className="button button--ghost" href={pageHref('/')}>
            返回首页
          </a>
        </p>
      </section>
    );
  }
}
