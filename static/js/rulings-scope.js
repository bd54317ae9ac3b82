// The rulings filters follow the judge (issue 15): a game or document chosen on the search page is kept
// in this browser, and a search from the top bar of any other page carries it in its address (so the page
// says which filters are on, Back and a shared link give the same results, and a proxy may cache it).
// Choosing "All games" and "All current documents" again forgets it. Without JavaScript the top bar
// searches the default scope.
(function () {
  "use strict";
  var KEY = "rulings-scope";

  function stored() {
    try {
      return JSON.parse(window.localStorage.getItem(KEY) || "null") || {};
    } catch (error) {
      return {};
    }
  }

  function remember(form) {
    var scope = {};
    ["game", "document"].forEach(function (name) {
      var field = form.elements[name];
      if (field && field.value) scope[name] = field.value;
    });
    try {
      if (scope.game || scope.document) window.localStorage.setItem(KEY, JSON.stringify(scope));
      else window.localStorage.removeItem(KEY);
    } catch (error) {
      // Private browsing without storage: the filters still work on this page.
    }
  }

  // The page refused a filter kept here (a document since removed): forget it, so it is not sent again.
  document.addEventListener("DOMContentLoaded", function () {
    if (document.querySelector(".rulings-filter-error")) {
      try {
        window.localStorage.removeItem(KEY);
      } catch (error) {
        // nothing kept
      }
    }
  });

  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.classList.contains("rulings-search") && /^(game|document)$/.test(event.target.name)) {
      remember(form);
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("quicksearch")) return;
    var scope = stored();
    ["game", "document"].forEach(function (name) {
      if (!scope[name] || form.elements[name]) return;
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = scope[name];
      form.appendChild(input);
    });
  });
})();
