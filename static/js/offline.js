// Issue 18: the hall's wifi drops. Registers the service worker (/sw.js) that keeps the judges' pages,
// says on every page when it is offline and how old what it shows is, and never lets something typed
// vanish: a form posted without a network is stopped, its values kept, and the page says it was not saved.
(function () {
  var failed = false; // a request failed although the browser believes it is online

  function offline() {
    return !navigator.onLine || failed;
  }

  function clock(date) {
    var time = date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
    if (date.toDateString() === new Date().toDateString()) return time;
    return date.toLocaleDateString([], { day: "numeric", month: "short" }) + " " + time;
  }

  // When the server sent this page: the saved copy's Date header (the service worker keeps the response
  // whole), else, for a page not saved, when it was loaded. Not in the page itself, so that two answers
  // for the same page stay byte for byte the same (ETags, gzip).
  var loadedAt = new Date(performance.timeOrigin || Date.now());
  var savedAt = null;
  function findSavedAt() {
    if (!window.caches) return Promise.resolve(loadedAt);
    return caches.match(location.href).then(
      function (response) {
        var date = response ? new Date(response.headers.get("Date") || "") : loadedAt;
        return isNaN(date) ? loadedAt : date;
      },
      function () { return loadedAt; },
    );
  }

  function show() {
    var banner = document.getElementById("offline-banner");
    if (!banner) return;
    if (!offline()) { banner.hidden = true; banner.textContent = ""; return; }
    (savedAt ? Promise.resolve(savedAt) : findSavedAt()).then(function (date) {
      savedAt = date;
      var text = "Offline — showing what was saved at " + clock(date);
      if (banner.textContent !== text) banner.textContent = text;
      banner.hidden = !offline();
    });
  }

  function notSaved(form) {
    var note = form.nextElementSibling;
    if (!note || !note.classList.contains("offline-not-saved")) {
      note = document.createElement("p");
      note.className = "message error offline-not-saved";
      note.setAttribute("role", "alert");
      form.insertAdjacentElement("afterend", note);
    }
    note.textContent = "Not saved: no network. What you entered is kept here; send it again when the network returns.";
  }

  function clearNotes() {
    document.querySelectorAll(".offline-not-saved").forEach(function (note) { note.remove(); });
  }

  window.dcdbOffline = { offline: offline, clock: clock };

  window.addEventListener("online", function () { failed = false; show(); clearNotes(); });
  window.addEventListener("offline", show);
  document.addEventListener("DOMContentLoaded", show);
  document.addEventListener("htmx:sendError", function (e) {
    failed = true;
    show();
    var verb = e.detail.requestConfig && e.detail.requestConfig.verb;
    if (verb && verb !== "get") notSaved(e.detail.elt.closest("form") || e.detail.elt);
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (failed && e.detail.xhr && e.detail.xhr.status > 0) { failed = false; show(); }
  });
  // htmx posts (a turn ticked off) and plain posts (a time call): stopped before they leave the page.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var verb = e.detail.requestConfig && e.detail.requestConfig.verb;
    if (verb && verb !== "get" && offline()) {
      e.preventDefault();
      notSaved(e.detail.elt.closest("form") || e.detail.elt);
    }
  });
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if ((form.getAttribute("method") || "get").toLowerCase() !== "post") return;
    if (offline()) {
      e.preventDefault();
      e.stopPropagation(); // before htmx sees it
      notSaved(form);
    } else if ((form.getAttribute("action") || "").indexOf("/logout") >= 0 && window.caches) {
      // getAttribute: a form with an input named "action" (the clock's, a slip's) hides form.action.
      caches.delete("dcdb-pages"); // the next person on this phone does not read the last one's pages
    }
  }, true);

  if ("serviceWorker" in navigator && document.body.dataset.serviceWorker) {
    navigator.serviceWorker.register(document.body.dataset.serviceWorker).catch(function () {});
  }
})();
