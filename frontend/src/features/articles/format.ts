/** `2026-11-12 09:30:00` → `2026-11-12`. */
export const dateOf = (time?: string): string => (time ? time.slice(0, 10) : '');

export function sizeLabel(bytes?: number): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
