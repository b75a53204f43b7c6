import { describeChunkError } from './chunk-error';

const webpackError = (message: string, type: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { name: 'ChunkLoadError', type, request: '/portal/assets/x.js', ...extra });

describe('chunk load failures', () => {
  it('reads the chunk id and maps the reason', () => {
    expect(describeChunkError(webpackError('Loading chunk 412 failed.\n(error: /x.js)', 'error'))).toMatchObject({
      chunkId: '412',
      reason: 'load',
      css: false,
    });
    expect(describeChunkError(webpackError('Loading chunk page-news failed.\n(timeout: /x.js)', 'timeout'))?.reason).toBe('timeout');
    expect(describeChunkError(webpackError('Loading chunk 7 failed.\n(missing: /x.js)', 'missing'))?.reason).toBe('missing');
  });

  it('recognises a stylesheet failure', () => {
    const css = Object.assign(new Error('Loading CSS chunk 31 failed.\n(/portal/assets/31.css)'), {
      code: 'CSS_CHUNK_LOAD_FAILED',
      type: 'error',
    });
    expect(describeChunkError(css)).toMatchObject({ chunkId: '31', css: true, reason: 'load' });
  });

  it('ignores other errors', () => {
    expect(describeChunkError(new TypeError('x is undefined'))).toBeNull();
    expect(describeChunkError('a string')).toBeNull();
  });
});
