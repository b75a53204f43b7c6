// 十字线: a horizontal and a vertical line through the pointer, to keep one's place in a line of
// text and a column. Its own chunk (prefs.ts loads it when the choice is on).
//
// An <svg> fixed over the viewport (reading.css: pointer-events none, above the page), hidden from
// assistive technology. The lines move by their SVG geometry attributes, not by style: the
// Content-Security-Policy allows no inline style, and none is needed.

const SVG = 'http://www.w3.org/2000/svg';

/** Draws the guide and follows the pointer; returns the function that removes both. */
export function startCrosshair(doc: Document = document): () => void {
  const view = doc.defaultView!;
  const svg = doc.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'reading-guide is-idle');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('data-reading-guide', '');
  // Each line twice: a light halo under a dark line, visible on light and dark parts of the page.
  const line = (axis: 'h' | 'v', part: 'halo' | 'line') => {
    const el = doc.createElementNS(SVG, 'line');
    el.setAttribute('class', `reading-guide__${part} reading-guide__${part}--${axis}`);
    el.setAttribute('data-axis', axis);
    if (axis === 'h') {
      el.setAttribute('x1', '0');
      el.setAttribute('x2', '100%');
    } else {
      el.setAttribute('y1', '0');
      el.setAttribute('y2', '100%');
    }
    svg.appendChild(el);
    return el;
  };
  const horizontal = [line('h', 'halo'), line('h', 'line')];
  const vertical = [line('v', 'halo'), line('v', 'line')];
  doc.body.appendChild(svg);

  let frame = 0;
  let x = 0;
  let y = 0;
  const draw = () => {
    frame = 0;
    horizontal.forEach((el) => {
      el.setAttribute('y1', String(y));
      el.setAttribute('y2', String(y));
    });
    vertical.forEach((el) => {
      el.setAttribute('x1', String(x));
      el.setAttribute('x2', String(x));
    });
    svg.setAttribute('class', 'reading-guide');
  };
  const onMove = (event: PointerEvent) => {
    x = event.clientX;
    y = event.clientY;
    if (!frame) frame = view.requestAnimationFrame(draw);
  };
  // The pointer left the window: the lines go until it is back.
  const onOut = (event: MouseEvent) => {
    if (!event.relatedTarget) svg.setAttribute('class', 'reading-guide is-idle');
  };
  doc.addEventListener('pointermove', onMove, { passive: true });
  doc.addEventListener('pointerdown', onMove, { passive: true });
  doc.addEventListener('mouseout', onOut);
  return () => {
    if (frame) view.cancelAnimationFrame(frame);
    doc.removeEventListener('pointermove', onMove);
    doc.removeEventListener('pointerdown', onMove);
    doc.removeEventListener('mouseout', onOut);
    svg.remove();
  };
}
