// The judges' offline copy (issue 18): Workbox, served from this site, never from a CDN.
importScripts({{ workbox_sw|safe }});
workbox.setConfig({ modulePathPrefix: {{ module_path|safe }}, debug: false });

const { registerRoute } = workbox.routing;
const { NetworkFirst, NetworkOnly, StaleWhileRevalidate } = workbox.strategies;
const { CacheableResponsePlugin } = workbox.cacheableResponse;
const { ExpirationPlugin } = workbox.expiration;
const { warmStrategyCache } = workbox.recipes;

const PAGES = "dcdb-pages"; // offline.js empties it when someone logs out
const RULINGS_INDEX = {{ rulings_index|safe }};
const SEARCH_INDEX = {{ search_index|safe }};
const CALCULATOR = {{ calculator|safe }};
const STATIC_URL = {{ static_url|safe }};

workbox.core.skipWaiting();
workbox.core.clientsClaim();

// Pages a judge reads at a table: the rulings, the calculator and a table's page (time call, turns).
// Network first, so a working network always shows the current page; after 4 seconds without an
// answer, or with no network, the copy saved when the page was last opened. Nothing else is kept:
// staff pages with players' details stay off the phone.
const TABLE_PAGE = /^\/judging\/e\/[^/]+\/rounds\/\d+\/tables\/\d+\/$/;
function keptOffline(url) {
  return url.pathname.startsWith(RULINGS_INDEX) || url.pathname === CALCULATOR || TABLE_PAGE.test(url.pathname);
}
const pages = new NetworkFirst({
  cacheName: PAGES,
  networkTimeoutSeconds: 4,
  plugins: [
    new CacheableResponsePlugin({ statuses: [200] }),
    new ExpirationPlugin({ maxEntries: 300, purgeOnQuotaError: true }),
    {
      // A search never made online, or a rule never opened: the search page, which then searches the
      // saved copy itself (offline-search.js).
      handlerDidError: async ({ request }) =>
        new URL(request.url).pathname.startsWith(RULINGS_INDEX)
          ? caches.match(RULINGS_INDEX, { cacheName: PAGES })
          : undefined,
    },
  ],
});
registerRoute(
  ({ request, url }) => request.mode === "navigate" && url.origin === self.location.origin && keptOffline(url),
  pages,
);

// The documents for the offline search (the server answers 304 while they are unchanged).
const searchIndex = new NetworkFirst({
  cacheName: "dcdb-search",
  networkTimeoutSeconds: 4,
  plugins: [new CacheableResponsePlugin({ statuses: [200] })],
});
registerRoute(({ url }) => url.origin === self.location.origin && url.pathname === SEARCH_INDEX, searchIndex);

const statics = new StaleWhileRevalidate({
  cacheName: "dcdb-static",
  plugins: [new CacheableResponsePlugin({ statuses: [200] }), new ExpirationPlugin({ maxEntries: 100 })],
});
registerRoute(({ url }) => url.origin === self.location.origin && url.pathname.startsWith(STATIC_URL), statics);

// A form posted without a network is never kept or replayed here: the page says it was not saved.
// offline.js stops such a post before it leaves the page; this catches the one that fails on the way.
const NOT_SAVED = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Not saved: no network</title></head>
<body style="font-family: system-ui, sans-serif; margin: 2rem; line-height: 1.5">
<main><h1>Not saved: no network</h1>
<p>What you sent did not reach the server. Go back: what you entered is still on the page; send it again when the network returns.</p>
<p><button type="button" onclick="history.back()">Go back</button></p></main></body></html>`;
registerRoute(
  ({ request }) => request.mode === "navigate",
  new NetworkOnly({
    plugins: [
      {
        handlerDidError: async () =>
          new Response(NOT_SAVED, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }),
      },
    ],
  }),
  "POST",
);

// On install: the search page, the calculator, the documents and what those pages load.
warmStrategyCache({ urls: [RULINGS_INDEX, CALCULATOR], strategy: pages });
warmStrategyCache({ urls: [SEARCH_INDEX], strategy: searchIndex });
warmStrategyCache({ urls: {{ static_files|safe }}, strategy: statics });
