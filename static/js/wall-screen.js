// The wall screen's list (judging/projector.html), one page at a time: as many columns as fit the width
// (CSS decides: the page is an auto-fill grid), as many lines as fit the height, and the next page every
// few seconds (the list's data-page-seconds). Laid out again after each live update and on a resize.
(function () {
  "use strict";
  let box = null; // the list as laid out last, with what it was made of
  let rows = [];
  let head = null;
  let listClass = "";
  let current = 0;
  let timer = null;

  function column(start) {
    const col = document.createElement("div");
    col.className = "screen-col";
    col.append(head.cloneNode(true));
    const list = document.createElement("ol");
    list.className = listClass;
    list.start = start;
    col.append(list);
    return col;
  }

  function pageElement(number) {
    const page = document.createElement("div");
    page.className = "screen-page";
    page.dataset.page = String(number);
    return page;
  }

  function show() {
    const pages = box ? box.querySelectorAll(".screen-page") : [];
    const label = document.querySelector("[data-screen-page-label]");
    if (!pages.length) {
      if (label) label.textContent = "";
      return;
    }
    current = current % pages.length;
    pages.forEach((page, i) => { page.hidden = i !== current; });
    if (label) label.textContent = pages.length > 1 ? "Page " + (current + 1) + " of " + pages.length : "";
  }

  function layout() {
    const found = document.querySelector("[data-screen-pages]");
    if (!found) { box = null; show(); return; }
    const fresh = found.querySelector(":scope > ol");
    if (fresh) { // the server's list, just loaded or just replaced by the live update
      box = found;
      head = found.querySelector(":scope > .screen-col-head");
      listClass = fresh.className;
      rows = Array.from(fresh.children);
    }
    if (!rows.length) return;
    box.replaceChildren();
    // Measure one page: how many columns the grid makes, how tall a line is.
    const probe = pageElement(1);
    box.append(probe);
    const columns = getComputedStyle(probe).gridTemplateColumns.split(" ").filter(Boolean).length || 1;
    const first = column(1);
    probe.append(first);
    first.lastChild.append(rows[0]);
    const line = rows[0].getBoundingClientRect().height || 1;
    const free = box.clientHeight - first.firstChild.getBoundingClientRect().height;
    const fits = Math.max(1, Math.floor(free / line));
    // A list that fits on one page spreads evenly over its columns; a longer one fills each page.
    const perColumn = rows.length <= fits * columns ? Math.ceil(rows.length / columns) : fits;
    const perPage = perColumn * columns;
    box.replaceChildren();
    for (let p = 0; p * perPage < rows.length; p++) {
      const page = pageElement(p + 1);
      for (let c = 0; c < columns; c++) {
        const start = p * perPage + c * perColumn;
        if (start >= rows.length) break;
        const col = column(start + 1);
        col.lastChild.append(...rows.slice(start, start + perColumn));
        page.append(col);
      }
      box.append(page);
    }
    show();
    if (timer === null) {
      const seconds = Number(box.dataset.pageSeconds) || 12;
      timer = setInterval(() => { current += 1; show(); }, seconds * 1000);
    }
  }

  document.addEventListener("DOMContentLoaded", layout);
  document.addEventListener("htmx:afterSettle", layout);
  let resizing = null;
  window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(layout, 200); });
})();
