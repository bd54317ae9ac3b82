// Cross-references that open in place (issue 15): a tap on a link that carries data-peek shows the
// entry it points at right below the paragraph, fetched by htmx from that address; a second tap, or
// the Hide button in the panel, closes it. Tooltips do not work on touch screens, this does.
// Without JavaScript (or htmx), and with a modifier key or a middle click, the link is a plain link.
(function () {
  "use strict";
  if (!window.htmx) return;
  var opened = 0;

  function mark(root) {
    root.querySelectorAll("a[data-peek]:not([aria-expanded])").forEach(function (link) {
      link.setAttribute("aria-expanded", "false");
    });
  }

  // Where the panel goes: after the paragraph that holds the link (after the panels already
  // opened from it, in the order tapped); inside a list item or a table cell, at its end.
  function place(link, panel) {
    var paragraph = link.closest("p");
    if (!paragraph) {
      (link.closest("li, dd, td") || link.parentElement).appendChild(panel);
      return;
    }
    var after = paragraph;
    while (after.nextElementSibling && after.nextElementSibling.xrefFrom === paragraph) {
      after = after.nextElementSibling;
    }
    panel.xrefFrom = paragraph;
    after.insertAdjacentElement("afterend", panel);
  }

  function open(link) {
    var panel = document.createElement("div");
    opened += 1;
    panel.id = "xref-peek-" + opened;
    panel.className = "xref-peek";
    panel.setAttribute("role", "region");
    panel.setAttribute("aria-label", link.textContent.trim());
    panel.innerHTML = '<p class="muted small">Loading…</p>';
    panel.xrefLink = link;
    link.xrefPanel = panel;
    link.setAttribute("aria-expanded", "true");
    link.setAttribute("aria-controls", panel.id);
    place(link, panel);
    htmx.ajax("GET", link.getAttribute("data-peek"), { source: link, target: panel, swap: "innerHTML" });
  }

  function close(link) {
    if (link.xrefPanel) link.xrefPanel.remove();
    link.xrefPanel = null;
    link.setAttribute("aria-expanded", "false");
    link.removeAttribute("aria-controls");
  }

  document.addEventListener("click", function (event) {
    var hide = event.target.closest("[data-peek-close]");
    if (hide) {
      var panel = hide.closest(".xref-peek");
      if (panel && panel.xrefLink) {
        var link = panel.xrefLink;
        close(link);
        link.focus();
      }
      return;
    }
    var target = event.target.closest("a[data-peek]");
    if (!target || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (target.xrefPanel && target.xrefPanel.isConnected) close(target);
    else open(target);
  });

  // A panel that could not be loaded says so and keeps the way to the page.
  function failed(event) {
    var panel = event.detail && event.detail.target;
    if (!panel || !panel.classList || !panel.classList.contains("xref-peek") || !panel.xrefLink) return;
    var message = document.createElement("p");
    message.className = "small";
    message.textContent = "Could not load it here. ";
    var link = document.createElement("a");
    link.href = panel.xrefLink.href;
    link.textContent = "Open " + panel.xrefLink.textContent.trim() + " →";
    message.appendChild(link);
    panel.replaceChildren(message);
  }
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:sendError", failed);

  htmx.onLoad(mark);
})();
