// Progressive enhancement only: every page works without this script.
// 1. Live standings: poll the JSON and redraw the table body.
// 2. Score sheet: mark a score cell that is not a number as you type.
(function () {
  "use strict";
  var table = document.getElementById("standings");
  if (table) {
    var source = table.getAttribute("data-source");
    var every = 1000 * (parseInt(table.getAttribute("data-every"), 10) || 5);
    var body = table.tBodies[0];
    var refresh = function () {
      fetch(source, { headers: { Accept: "application/json" }, cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (!data) { return; }
          var rows = document.createDocumentFragment();
          // every row's points with the column's decimals, in the page's language
          var digits = data.points_decimals || 0;
          var points = new Intl.NumberFormat(document.documentElement.lang || undefined,
            { minimumFractionDigits: digits, maximumFractionDigits: digits });
          data.standings.forEach(function (s) {
            var tr = document.createElement("tr");
            [s.place, s.player, points.format(s.points)].forEach(function (v) {
              var td = document.createElement("td");
              td.textContent = String(v);  // text, never markup
              tr.appendChild(td);
            });
            rows.appendChild(tr);
          });
          body.replaceChildren(rows);
          table.setAttribute("data-updated", String(Date.now()));
        })
        .catch(function () { /* the next poll tries again */ });
    };
    setInterval(refresh, every);
  }
  var sheet = document.getElementById("sheet");
  if (sheet) {
    sheet.addEventListener("input", function (e) {
      var input = e.target;
      if (!input.name || input.name.indexOf("score-") !== 0) { return; }
      var ok = input.value.trim() === "" || /^-?\d+([.,]\d+)?$/.test(input.value.trim());
      input.setAttribute("aria-invalid", ok ? "false" : "true");
    });
  }
})();
