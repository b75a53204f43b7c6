const React = require('react'); const S = require('react-dom/server.browser');
const h = React.createElement;
console.log(S.renderToString(h('div', null, h('title', null, 'T 标题'), h('meta', {name:'description', content:'d'}), h('link',{rel:'canonical', href:'/x'}), h('p', null, 'hi'))));
console.log(S.renderToString(h(React.Fragment, null, h('p', null, 'a'), h(React.Suspense, {fallback: 'f'}, h('span', null, 'b')))));
