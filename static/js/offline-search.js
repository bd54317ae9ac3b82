// Issue 18: the rulings search without a network. The service worker keeps /rulings/offline-index.json
// (every entry of the current documents); offline, this searches that copy with MiniSearch and shows the
// results in the search page's own list, saying how old the copy is.
(function () {
  var loaded = null; // a promise of {search, saved}

  function load(url) {
    if (!loaded) {
      loaded = fetch(url).then(function (response) {
        if (!response.ok) throw new Error("no saved copy");
        var saved = new Date(response.headers.get("Date") || "");
        return response.json().then(function (data) {
          var search = new MiniSearch({
            idField: "u",
            fields: ["n", "t", "c", "x"],
            storeFields: ["u", "g", "d", "n", "t", "c", "x"],
          });
          search.addAll(data.entries);
          var numbers = {}; // rule number -> its entries, for a number typed in a short form
          data.entries.forEach(function (entry) {
            if (entry.n) (numbers[entry.n] = numbers[entry.n] || []).push(entry);
          });
          return { search: search, numbers: numbers, saved: isNaN(saved) ? null : saved };
        });
      });
      loaded.catch(function () { loaded = null; });
    }
    return loaded;
  }

  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  // A rule number as typed ("9.22", "rule 12.05", "#1.2") and the printed forms it may mean, as the
  // server reads them: DCDB prints three decimals, so "9.22" is 9.022 and "12.05" is 12.050.
  function numberForms(query) {
    var match = /^(?:rule\s*|#)?(\d{1,3})\.(\d{1,3})([a-z]?)$/i.exec(query.trim());
    if (!match) return [];
    var whole = match[1], part = match[2], letter = match[3].toLowerCase();
    var forms = [whole + "." + part + letter];
    if (part.length === 2) forms.push(whole + ".0" + part + letter, whole + "." + part + "0" + letter);
    if (part.length === 1) forms.push(whole + ".0" + part + "0" + letter, whole + "." + part + "00" + letter);
    return forms;
  }

  function find(copy, query, game) {
    var options = { prefix: true, fuzzy: 0.2, boost: { n: 4, t: 2, c: 2 }, combineWith: "AND" };
    var hits = copy.search.search(query, options);
    if (!hits.length) hits = copy.search.search(query, Object.assign({}, options, { combineWith: "OR" }));
    // A rule number: the entries printed with it first (the first printed form that exists).
    var numbered = numberForms(query).map(function (form) { return copy.numbers[form]; }).filter(Boolean)[0] || [];
    var first = {};
    numbered.forEach(function (entry) { first[entry.u] = true; });
    hits = numbered.concat(hits.filter(function (hit) { return !first[hit.u]; }));
    if (game) hits = hits.filter(function (hit) { return hit.g === game; });
    return hits.slice(0, 20);
  }

  // The same list as templates/rulings/_results.html, built from text only.
  function render(target, query, copy, hits) {
    var inner = el("div");
    inner.id = "results-inner";
    inner.setAttribute("aria-live", "polite");
    var when = copy.saved && window.dcdbOffline ? window.dcdbOffline.clock(copy.saved) : "an unknown time";
    inner.appendChild(el("p", "Offline: searching the copy saved at " + when + ".", "message offline-note"));
    if (!hits.length) {
      inner.appendChild(el("p", "Nothing in the saved copy answers “" + query + "”.", "rulings-empty"));
    } else {
      var list = el("ol", "", "rulings-results");
      hits.forEach(function (hit) {
        var item = el("li", "", "rulings-hit");
        var link = el("a", "", "hit-link");
        link.href = hit.u;
        link.appendChild(el("span", [hit.n, hit.t].filter(Boolean).join(" "), "entry-label"));
        item.appendChild(link);
        if (hit.c) item.appendChild(el("span", " ruling on " + hit.c, "muted small"));
        item.appendChild(el("p", hit.x, "snippet"));
        item.appendChild(el("p", hit.d, "hit-source muted small"));
        list.appendChild(item);
      });
      inner.appendChild(list);
    }
    target.replaceChildren(inner);
  }

  function searchOffline(form) {
    var query = form.elements.q.value.trim();
    var target = document.getElementById("results");
    if (!query || !target) return;
    var game = form.elements.game ? form.elements.game.value : "";
    load(form.dataset.offlineIndex).then(
      function (copy) { render(target, query, copy, find(copy, query, game === "all" ? "" : game)); },
      function () {
        target.replaceChildren(el("p", "Offline, and no copy of the documents is saved on this device yet.", "message error"));
      },
    );
  }

  function searchForm(elt) {
    return elt && elt.closest ? elt.closest("form.rulings-search") : null;
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = searchForm(e.detail.elt);
    if (form && window.dcdbOffline && window.dcdbOffline.offline()) {
      e.preventDefault();
      searchOffline(form);
    }
  });
  document.addEventListener("htmx:sendError", function (e) {
    var form = searchForm(e.detail.elt);
    if (form) searchOffline(form);
  });
  // Opened offline with a question (the top bar's search on another page): the saved search page
  // comes up, and the question is answered from the saved copy.
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form.rulings-search");
    var query = new URLSearchParams(location.search).get("q");
    if (!form || !query || !window.dcdbOffline || !window.dcdbOffline.offline()) return;
    form.elements.q.value = query;
    searchOffline(form);
  });
})();
