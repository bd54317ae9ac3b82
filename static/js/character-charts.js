// The main-character statistics pages (templates/tournaments/characters.html): two horizontal bar charts,
// share of games and win rate, from the page's JSON (#character-chart-data). Chart.js is vendored
// (static/vendor/chartjs). The same figures are in the table below the charts.
(function () {
  function draw() {
    const source = document.getElementById("character-chart-data");
    if (!source || typeof Chart === "undefined") return;
    const data = JSON.parse(source.textContent);
    const style = getComputedStyle(document.documentElement);
    const accent = style.getPropertyValue("--accent").trim() || "#0b5cad";
    const ok = style.getPropertyValue("--ok").trim() || "#1e7b34";
    const muted = style.getPropertyValue("--muted").trim() || "#5b6470";
    const fg = style.getPropertyValue("--fg").trim() || "#1b1f24";
    Chart.defaults.color = fg;
    Chart.defaults.font.size = 13;
    function bars(id, values, colour, title, extra, max) {
      const canvas = document.getElementById(id);
      if (!canvas) return;
      const narrow = canvas.parentElement.clientWidth < 560;
      new Chart(canvas, {
        type: "bar",
        data: { labels: narrow ? data.short : data.labels, datasets: [{ label: title, data: values, backgroundColor: colour }].concat(extra || []) },
        options: {
          indexAxis: "y",
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: {
            x: { beginAtZero: true, suggestedMax: max, ticks: { callback: (v) => v + "%" } },
            y: { ticks: { autoSkip: false } },
          },
          plugins: {
            legend: { display: false },
            tooltip: {
              callbacks: {
                title: (items) => data.labels[items[0].dataIndex],
                label: (item) =>
                  item.dataset.type === "line"
                    ? "chance: " + item.parsed.x + "%"
                    : title + ": " + item.parsed.x + "% (" + data.games[item.dataIndex] + " games)",
              },
            },
          },
        },
      });
    }
    bars("chart-share", data.share, accent, "Share of games", [], undefined);
    const par = data.par === null ? [] : [{
      type: "line", label: "chance", data: data.labels.map(() => data.par), borderColor: muted,
      borderDash: [6, 4], borderWidth: 2, pointRadius: 0, indexAxis: "y",
    }];
    bars("chart-win", data.win_rate, ok, "Win rate", par, 100);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", draw);
  else draw();
})();
