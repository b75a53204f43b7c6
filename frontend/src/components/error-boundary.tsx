import { Component, type ReactNode } from 'react';

import { describeChunkError, reportChunkFailure, type ChunkFailure } from '../lib/chunk-error';
import { messages } from '../lib/locale';
import { pageHref } from '../lib/page-href';

const text = messages({
  zh: {
    reasons: { load: '网络错误', timeout: '加载超时', missing: '文件缺失' } as Record<ChunkFailure['reason'], string>,
    chunkTitle: '页面加载失败',
    errorTitle: '页面出错了',
    chunkBody: (css: boolean, reason: string) => `${css ? '样式文件' : '页面文件'}未能加载（${reason}），请检查网络后重试。`,
    errorBody: '页面显示时出现问题，请重试或返回首页。',
    detail: (kind: string, chunkId: string, reason: string) => `错误信息：${kind} ${chunkId}，原因 ${reason}`,
    retry: '重新加载',
    home: '返回首页',
  },
  en: {
    reasons: { load: 'network error', timeout: 'timed out', missing: 'file missing' },
    chunkTitle: 'The page failed to load',
    errorTitle: 'Something went wrong',
    chunkBody: (css: boolean, reason: string) =>
      `The page's ${css ? 'stylesheet' : 'script'} could not be loaded (${reason}). Please check your connection and try again.`,
    errorBody: 'A problem occurred while displaying the page. Please try again or return to the home page.',
    detail: (kind: string, chunkId: string, reason: string) => `Error details: ${kind} ${chunkId}, reason ${reason}`,
    retry: 'Reload',
    home: 'Back to Home',
  },
});

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
    const t = text();
    return (
      <section className="error-panel" role="alert">
        <h1>{chunk ? t.chunkTitle : t.errorTitle}</h1>
        <p>{chunk ? t.chunkBody(chunk.css, t.reasons[chunk.reason]) : t.errorBody}</p>
        {chunk && <p className="error-panel__detail">{t.detail(chunk.css ? 'CSS chunk' : 'chunk', chunk.chunkId, chunk.reason)}</p>}
        <p className="error-panel__actions">
          <button type="button" className="button" onClick={this.retry}>
            {t.retry}
          </button>
          <a className="button button--ghost" href={pageHref('/')}>
            {t.home}
          </a>
        </p>
      </section>
    );
  }
}
