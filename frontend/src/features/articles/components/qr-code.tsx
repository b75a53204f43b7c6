// Loaded only when a visitor asks for the QR code (its own chunk, outside the initial budget).
import { encode } from 'uqr';

/** The address as a QR code: one SVG path of dark modules, crisp at any size and in print. */
export default function QrCode({ text, label }: { text: string; label: string }) {
  // Medium error correction: a phone still reads it from a slightly blurred or glaring screen.
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg className="qr-code" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} width={176} height={176} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
