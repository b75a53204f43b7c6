// The server bundle's stand-in for a stylesheet import: nothing (the browser's build links the
// stylesheets; a render only writes markup).
module.exports = function noCss() {
  return 'export {};';
};
