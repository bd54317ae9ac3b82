// Issue 18: the extra-turn calculator without a network. The same arithmetic as judging/time_call.py
// (9.020-9.022, 9.050); tests/judging/test_offline_browser.py checks both give the same answers.
(function () {
  function extraTurns(playersInGame, activePosition) {
    if (activePosition === 1) return playersInGame - 1;
    return playersInGame - activePosition + playersInGame;
  }

  // Seat ``active``'s turn at a table of ``seats``; ``left``: seats of players who have left the game.
  function timeCall(seats, active, left) {
    var gone = left || [];
    var inGame = [];
    for (var seat = 1; seat <= seats; seat++) if (gone.indexOf(seat) < 0) inGame.push(seat);
    var position = inGame.indexOf(active) + 1;
    var count = extraTurns(inGame.length, position);
    var turns = [];
    for (var i = 1; i <= count; i++) turns.push(inGame[(position - 1 + i) % inGame.length]);
    var names = turns.map(function (s) { return "P" + s; });
    var sentence = "P" + active + " finishes, then " + names.join(", ") +
      "; the game ends after P" + turns[turns.length - 1] + "'s turn.";
    return { extraTurns: count, turns: turns, sentence: sentence };
  }
  window.dcdbTimeCall = timeCall;

  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  // The same markup as templates/judging/_calculator_result.html.
  function show(form) {
    var players = parseInt(form.elements.players.value, 10);
    var active = parseInt(form.elements.active_seat.value, 10);
    var target = document.getElementById("calculator-result");
    target.replaceChildren();
    if (active > players) {
      target.appendChild(el("p", "There is no P" + active + " in a " + players + "-player game.", "errorlist"));
      return;
    }
    var call = timeCall(players, active, []);
    var section = el("section", "", "card");
    section.id = "sequence";
    var big = el("p", "", "judging-big");
    big.appendChild(el("strong", String(call.extraTurns)));
    big.appendChild(document.createTextNode(" extra turn" + (call.extraTurns === 1 ? "" : "s")));
    section.appendChild(big);
    section.appendChild(el("p", call.sentence));
    var list = el("ol", "", "judging-turns");
    [active].concat(call.turns).forEach(function (seat, index) {
      var item = el("li", "P" + seat);
      if (index === 0) {
        item.appendChild(document.createTextNode(" "));
        item.appendChild(el("span", "(finishes the current turn)", "muted small"));
      }
      list.appendChild(item);
    });
    section.appendChild(list);
    target.appendChild(section);
  }

  function calculator(elt) {
    return elt && elt.closest ? elt.closest("form.judging-calculator") : null;
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = calculator(e.detail.elt);
    if (form && window.dcdbOffline && window.dcdbOffline.offline()) {
      e.preventDefault();
      show(form);
    }
  });
  document.addEventListener("htmx:sendError", function (e) {
    var form = calculator(e.detail.elt);
    if (form) show(form);
  });

  // Only the seats the game has: a 3-player game offers P1 to P3. Run in the capture phase, before the
  // form's own change handler sends it, so a seat that no longer exists becomes the last one first.
  function seatsFor(form) {
    var players = parseInt(form.elements.players.value, 10);
    var active = form.elements.active_seat;
    Array.prototype.forEach.call(active.options, function (option) {
      var gone = parseInt(option.value, 10) > players;
      option.disabled = gone;
      option.hidden = gone;
    });
    if (parseInt(active.value, 10) > players) active.value = String(players);
  }
  document.addEventListener("change", function (e) {
    var form = calculator(e.target);
    if (form && e.target.name === "players") seatsFor(form);
  }, true);
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form.judging-calculator");
    if (form) seatsFor(form);
  });
})();
