// Loaded only when a visitor asks for the QR code (its own chunk, like the app's qr-code.tsx).
import { encode } from 'uqr';

const SVG = 'http://www.w3.org/2000/svg';

/** The address as a QR code: one SVG path of dark modules, crisp at any size and in print. */
export function qrSvg(text: string, label: string): SVGSVGElement {
  // Medium error correction: a phone still reads it from a slightly blurred or glaring screen.
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  const svg = document.createElementNS(SVG, 'svg');
  const attrs = { class: 'qr-code', role: 'img', 'aria-label': label, viewBox: `0 0 ${size} ${size}`, width: '176', height: '176', 'shape-rendering': 'crispEdges' };
  Object.entries(attrs).forEach(([name, value]) => svg.setAttribute(name, value));
  const background = document.createElementNS(SVG, 'rect');
  background.setAttribute('width', String(size));
  background.setAttribute('height', String(size));
  background.setAttribute('fill', '#fff');
  const modules = document.createElementNS(SVG, 'path');
  modules.setAttribute('d', path);
  modules.setAttribute('fill', '#000');
  svg.append(background, modules);
  return svg;
}
