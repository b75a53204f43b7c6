// The server render's markup, cut where React put the page's head elements. `renderToString` of
// the app (no document around it) writes the `<title>`, `<meta>` and `<link>` a page renders
// before the page's own markup, where React would hoist them into the head: the gateway puts
// them into the page's head (`<!--portal-head-->`) and the rest into `#root`.

const HOISTED = /^(?:<title>[^<]*<\/title>|<meta [^>]*\/>|<link [^>]*\/>)*/;

export function splitHead(html: string): { head: string; body: string } {
  const head = HOISTED.exec(html)?.[0] ?? '';
  return { head, body: html.slice(head.length) };
}
