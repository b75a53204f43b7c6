// Production build into dist/, served by the gateway under /portal/.
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CssMinimizerPlugin = require('css-minimizer-webpack-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const zlib = require('node:zlib');

const GATEWAY = process.env.GATEWAY_URL || 'http://127.0.0.1:8080';

/**
 * What the home page's first paint needs, in index.html's head (the gateway draws the page's top
 * into it, gateway/src/first_paint): the home page's stylesheet, so the drawn markup is styled
 * from the first paint (render-blocking, as main.css; the chunk loader later finds it there and
 * does not load it twice), and its script preloaded, so the app's first render is the page itself
 * (lazyPage's `preload`); the entry's scripts are preloaded and started by index.html's head
 * script once the page has painted. The two API answers every page starts from are in the page too (the
 * gateway's boot block), so no request for them is announced here any more.
 */
const FIRST_PAINT_CHUNK = 'page-home';

/** The page kinds whose chunks and first API answer a deep link preloads (src/app/router.tsx). */
const DEEP_LINK_PAGES = { article: 'page-article', news: 'page-news', single: 'page-single' };

/**
 * [route, kind] of every route of the route table whose page is one of `kinds`; not a route the app
 * redirects (`sameAs`): a deep link to it shows another route's page, so nothing of its own is
 * preloaded or drawn for it.
 */
function routesOfKinds(kinds) {
  const table = require('./src/app/route-table.json');
  const walk = (routes) =>
    routes.flatMap((r) => [...(kinds.includes(r.page) && r.path && !r.sameAs ? [[r.path, r.page]] : []), ...walk(r.routes ?? [])]);
  return walk(table.routes);
}
class FirstPaintAssets {
  apply(compiler) {
    compiler.hooks.compilation.tap('FirstPaintAssets', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('FirstPaintAssets', (data) => {
        const chunk = compilation.namedChunks.get(FIRST_PAINT_CHUNK);
        if (!chunk) throw new Error(`no chunk named ${FIRST_PAINT_CHUNK}: the home page's first paint has nothing to preload`);
        const publicPath = compilation.outputOptions.publicPath;
        const link = (attributes) => ({ tagName: 'link', voidTag: true, attributes, meta: { plugin: 'FirstPaintAssets' } });
        const files = [...chunk.files];
        // The app's own scripts are asked for once the page the gateway drew is on screen
        // (index.html's head script reads these names): before it, they would share a slow
        // line with the stylesheets and the first cover (Lighthouse mobile: the largest paint
        // 2.0 s with them preloaded, ms without).
        data.headTags = data.headTags.map((tag) =>
          tag.tagName === 'script' && tag.attributes.src
            ? { tagName: 'meta', voidTag: true, attributes: { name: 'app-script', content: tag.attributes.src }, meta: { plugin: 'FirstPaintAssets' } }
            : tag,
        );
        // A deep link (`#/article/2101`, `#/news_center/notice`): the server cannot see the hash,
        // so index.html's head script preloads the route's chunks and its first API answer itself,
        // while the app's scripts load, from this map (route → page kind → files); without it they
        // would start only after main.js has run (Lighthouse mobile, an article: the largest paint
        // waited on main.js, then the chunk, then the detail call).
        const kinds = {};
        for (const [kind, chunkName] of Object.entries(DEEP_LINK_PAGES)) {
          const group = compilation.namedChunkGroups.get(chunkName);
          if (!group) throw new Error(`no chunk group named ${chunkName}: a deep link has nothing to preload`);
          kinds[kind] = group.chunks.flatMap((c) => [...c.files]).filter((f) => /\.(js|css)$/.test(f)).map((f) => publicPath + f);
        }
        const routes = Object.fromEntries(routesOfKinds(Object.keys(DEEP_LINK_PAGES)));
        data.headTags.push(
          {
            tagName: 'script',
            voidTag: false,
            attributes: { type: 'application/json', id: 'portal-deep-link' },
            innerHTML: JSON.stringify({ k: kinds, r: routes }).replace(/</g, '\\u003c'),
            meta: { plugin: 'FirstPaintAssets' },
          },
          ...files.filter((f) => f.endsWith('.css')).map((f) => link({ rel: 'stylesheet', href: publicPath + f })),
          ...files.filter((f) => f.endsWith('.js')).map((f) => link({ rel: 'preload', as: 'script', href: publicPath + f, fetchpriority: 'low' })),
        );
        return data;
      });
    });
  }
}

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

module.exports = (_env, argv) => {
  const production = argv.mode !== 'development';
  return {
    entry: {
      main: './src/index.tsx',
      // The crawlable pages' small script (src/site-enhance; the gateway links assets/site.<hash>.js).
      // Its runtime is inside it (runtime: false), so a page loads one file and not the app's runtime.
      site: { import: './src/site-enhance/index.ts', runtime: false },
    },
    output: {
      path: path.resolve(__dirname, 'dist'),
      publicPath: '/portal/',
      filename: production ? 'assets/[name].[contenthash:12].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:12].chunk.js' : 'assets/[name].chunk.js',
      assetModuleFilename: 'assets/[name].[contenthash:12][ext]',
      // The replaced portal's chunk load time-out.
      chunkLoadTimeout: 120000,
      clean: true,
    },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
    },
    // index.html is HtmlWebpackPlugin's template, not a webpack HTML module: webpack's own HTML
    // support ("auto" since 5.11x) would minify its inline script and break the CSP hash.
    experiments: { html: false },
    module: {
      rules: [
        { test: /\.tsx?$/, exclude: /node_modules/, use: { loader: 'swc-loader' } },
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
        { test: /\.(svg|png|webp|jpe?g|woff2)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      // The app's page loads the app only, never the crawlable pages' script.
      new HtmlWebpackPlugin({ template: './public/index.html', favicon: './public/favicon.svg', chunks: ['main'], inject: false }),
      ...(production ? [new FirstPaintAssets()] : []),
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
        cacheGroups: { defaultVendors: false },
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
  };
};
