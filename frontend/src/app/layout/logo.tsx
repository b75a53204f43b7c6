/** The company mark: a container on a rail line. */
export function Logo({ size = 40 }: { size?: number }) {
  return (
    <svg className="logo" width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="12" fill="#0b4f8a" />
      <rect x="14" y="16" width="36" height="20" rx="3" fill="#f2b134" />
      <path d="M20 20v12M27 20v12M34 20v12M41 20v12" stroke="#0b4f8a" strokeWidth="2" />
      <path d="M10 42h44M14 49h36" stroke="#fff" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}
