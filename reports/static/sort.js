/* Sortable tables: progressive enhancement.
   Tables come sorted from the server (standings by place, players by name...);
   with JavaScript, each header of a table.sortable becomes a button that sorts the
   rows by that column (numbers as numbers, using a cell's data-sort when it has one),
   and the header's aria-sort says the order. No inline script: the pages' Content
   Security Policy allows only this file. */
(function () {
  "use strict";

  function cellValue(row, index) {
    var cell = row.cells[index];
    if (!cell) { return ""; }
    var key = cell.getAttribute("data-sort");
    return key !== null ? key : cell.textContent.trim();
  }

  function asNumber(text) {
    if (text === "") { return NaN; }
    var cleaned = text.replace(/[\s\u00a0\u202f]/g, "").replace(/\u2212/g, "-").replace(/,/g, ".");
    var match = /^[-+]?\d*\.?\d+(e[-+]?\d+)?/i.exec(cleaned);
    return match ? parseFloat(match[0]) : NaN;
  }

  function compare(a, b) {
    var x = asNumber(a), y = asNumber(b);
    if (!isNaN(x) && !isNaN(y)) { return x - y; }
    return a.localeCompare(b, document.documentElement.lang || undefined, { sensitivity: "base" });
  }

  function sortBy(table, header, index) {
    var body = table.tBodies[0];
    if (!body) { return; }
    var descending = header.getAttribute("aria-sort") === "ascending";
    var rows = Array.prototype.slice.call(body.rows);
    var keyed = rows.map(function (row, position) {
      return { row: row, key: cellValue(row, index), position: position };
    });
    keyed.sort(function (p, q) {
      var order = compare(p.key, q.key);
      if (order === 0) { order = p.position - q.position; }
      return descending ? -order : order;
    });
    var headers = table.tHead.rows[0].cells;
    for (var i = 0; i < headers.length; i++) { headers[i].removeAttribute("aria-sort"); }
    header.setAttribute("aria-sort", descending ? "descending" : "ascending");
    var fragment = document.createDocumentFragment();
    keyed.forEach(function (item) { fragment.appendChild(item.row); });
    body.appendChild(fragment);
  }

  function enhance(table) {
    if (!table.tHead || !table.tHead.rows.length) { return; }
    var headers = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(headers, function (header, index) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (header.firstChild) { button.appendChild(header.firstChild); }
      header.appendChild(button);
      button.addEventListener("click", function () { sortBy(table, header, index); });
    });
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), enhance);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
