// Production build into dist/, served by the gateway under /portal/: the browser's app (client
// compilation) and the server bundle the gateway renders pages with (dist/server/render.js, one
// plain script for its JavaScript engine; never served).
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CssMinimizerPlugin = require('css-minimizer-webpack-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const zlib = require('node:zlib');

const webpack = require('webpack');

const GATEWAY = process.env.GATEWAY_URL || 'http://127.0.0.1:8080';

/** Writes the bundle report (assets, chunks, modules by size) to reports/bundle-stats.json. */
class BundleReport {
  apply(compiler) {
    compiler.hooks.done.tap('BundleReport', (stats) => {
      const fs = require('node:fs');
      const dir = path.resolve(__dirname, 'reports');
      fs.mkdirSync(dir, { recursive: true });
      const json = stats.toJson({ all: false, assets: true, chunks: true, chunkModules: false, entrypoints: true, modules: true });
      fs.writeFileSync(path.join(dir, 'bundle-stats.json'), JSON.stringify(json, null, 1));
    });
  }
}

// Every compressible file of the build gets a .br (quality 11) and a .gz (level 9) beside it, which
// the gateway serves as they are: nothing of the app is compressed per request (index.html too,
// which HtmlWebpackPlugin emits before this runs). Source maps are left out: private by default.
const COMPRESSIBLE = /\.(js|css|html|svg|txt|json)$/;
const precompress = () => [
  new CompressionPlugin({
    test: COMPRESSIBLE,
    filename: '[path][base].gz',
    algorithm: 'gzip',
    compressionOptions: { level: 9 },
    threshold: 0,
    minRatio: 0.9,
  }),
  new CompressionPlugin({
    test: COMPRESSIBLE,
    filename: '[path][base].br',
    algorithm: 'brotliCompress',
    compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
    threshold: 0,
    minRatio: 0.9,
  }),
];

const rules = (css) => [
  { test: /\.tsx?$/, exclude: /node_modules/, use: { loader: 'swc-loader' } },
  css,
  // The same file names in both compilations (content hashes), written once by the client's.
  { test: /\.(svg|png|webp|jpe?g|woff2)$/, type: 'asset/resource' },
];

/**
 * The server bundle: the app rendered by the gateway (crates/render runs it in QuickJS). One
 * script with every page in it (no chunks to load: a render never waits), stylesheets left out (the
 * browser's build links them), files named as the client build names them but not written again.
 */
const serverConfig = (production) => ({
  name: 'server',
  target: ['web', 'es2020'],
  mode: production ? 'production' : 'development',
  entry: { render: './src/server.tsx' },
  output: {
    path: path.resolve(__dirname, 'dist', 'server'),
    publicPath: '/portal/',
    filename: '[name].js',
    // The client build's names (emit: false below): the same URL under publicPath.
    assetModuleFilename: 'assets/[name].[contenthash:12][ext]',
    iife: true,
    clean: true,
  },
  devtool: false,
  resolve: { extensions: ['.tsx', '.ts', '.js'] },
  experiments: { html: false },
  module: {
    rules: rules({ test: /\.css$/, loader: path.resolve(__dirname, 'scripts/no-css-loader.js') }),
    generator: { 'asset/resource': { emit: false } },
  },
  plugins: [new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 })],
  optimization: { splitChunks: false, runtimeChunk: false },
  performance: { hints: false },
  stats: 'errors-warnings',
});

const clientConfig = (production) => ({
    name: 'client',
    mode: production ? 'production' : 'development',
    entry: { main: './src/index.tsx' },
    output: {
      path: path.resolve(__dirname, 'dist'),
      publicPath: '/portal/',
      filename: production ? 'assets/[name].[contenthash:12].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:12].chunk.js' : 'assets/[name].chunk.js',
      assetModuleFilename: 'assets/[name].[contenthash:12][ext]',
      // The replaced portal's chunk load time-out.
      chunkLoadTimeout: 120000,
      clean: { keep: /^server\// },
    },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
    },
    // index.html is HtmlWebpackPlugin's template, not a webpack HTML module: webpack's own HTML
    // support ("auto" since 5.11x) would minify its inline script and break the CSP hash.
    experiments: { html: false },
    module: {
      rules: rules({ test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] }),
    },
    plugins: [
      new HtmlWebpackPlugin({
        template: './public/index.html',
        favicon: './public/favicon.svg',
        chunks: ['main'],
        inject: false,
        scriptLoading: 'defer',
        // Minified, but the slots the gateway fills (`<!--portal-head-->`, …) stay.
        minify: production && { collapseWhitespace: true, removeComments: true, ignoreCustomComments: [/^portal-/], minifyJS: false, minifyCSS: false },
      }),
      ...(production ? [new BundleReport()] : []),
      new MiniCssExtractPlugin({
        filename: production ? 'assets/[name].[contenthash:12].css' : 'assets/[name].css',
        chunkFilename: production ? 'assets/[name].[contenthash:12].chunk.css' : 'assets/[name].chunk.css',
      }),
      ...(production ? precompress() : []),
    ],
    optimization: {
      minimizer: ['...', new CssMinimizerPlugin()],
      // One runtime and one vendor bundle for the shell; every page is its own lazy chunk.
      runtimeChunk: 'single',
      splitChunks: {
        chunks: 'async',
        cacheGroups: {
          defaultVendors: false,
          // Every stylesheet in one file the page links: a server-rendered page is styled from its
          // first paint, whichever page's chunk its markup comes from.
          styles: { name: 'styles', type: 'css/mini-extract', chunks: 'all', enforce: true },
        },
      },
    },
    performance: { hints: false },
    stats: production ? 'normal' : 'minimal',
    devServer: {
      port: 3000,
      devMiddleware: { publicPath: '/portal/' },
      historyApiFallback: { index: '/portal/index.html' },
      proxy: [{ context: ['/portal/api'], target: GATEWAY, changeOrigin: false }],
      open: false,
    },
});

module.exports = (_env, argv) => {
  const production = argv.mode !== 'development';
  // The dev server serves the browser's app only.
  return process.env.WEBPACK_SERVE ? clientConfig(production) : [clientConfig(production), serverConfig(production)];
};
