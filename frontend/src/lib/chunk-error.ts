// Recognising webpack's chunk load failures (scripts and extracted CSS).

export type ChunkFailureReason = 'load' | 'timeout' | 'missing';

export interface ChunkFailure {
  chunkId: string;
  reason: ChunkFailureReason;
  /** A stylesheet chunk rather than a script chunk. */
  css: boolean;
  request?: string;
}

interface WebpackChunkError extends Error {
  type?: string;
  request?: string;
  code?: string;
}

/** The chunk id and reason of a chunk load failure, or null for any other error. */
export function describeChunkError(error: unknown): ChunkFailure | null {
  if (!(error instanceof Error)) return null;
  const e = error as WebpackChunkError;
  const match = /Loading (CSS )?chunk (\S+) failed/.exec(e.message);
  const css = e.code === 'CSS_CHUNK_LOAD_FAILED' || Boolean(match?.[1]);
  if (e.name !== 'ChunkLoadError' && !css && !match) return null;
  const reason: ChunkFailureReason = e.type === 'timeout' ? 'timeout' : e.type === 'missing' ? 'missing' : 'load';
  return { chunkId: match?.[2] ?? 'unknown', reason, css, request: e.request };
}

export function reportChunkFailure(failure: ChunkFailure): void {
  const kind = failure.css ? 'CSS chunk load failure' : 'chunk load failure';
  console.error(`[portal] ${kind}: chunk ${failure.chunkId} (${failure.reason})`, failure.request ?? '');
}
