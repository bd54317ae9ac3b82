// "Find my table": filter the pairings by a typed name. The box sits outside the part of the page
// that refreshes, and the filter is applied again after every refresh, so what a player typed stays.
(function () {
  function norm(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[’'`´.\-]/g, "").trim();
  }
  function apply() {
    var box = document.getElementById("find-my-table");
    if (!box) return;
    var q = norm(box.value);
    document.querySelectorAll("[data-player]").forEach(function (el) {
      el.hidden = q !== "" && norm(el.dataset.player).indexOf(q) < 0;
    });
  }
  document.addEventListener("input", function (e) { if (e.target.id === "find-my-table") apply(); });
  document.addEventListener("htmx:afterSwap", apply);
})();
