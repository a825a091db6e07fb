// Progressive enhancement only: every page works without this script.
// 1. Live standings: poll the page and redraw its live part.
// 2. Score sheet: mark a score cell that is not a number as you type.
(function () {
  "use strict";
  // The page itself is fetched again and its live part swapped in: the server
  // renders it the one way (the static site's macros and number formats).
  var live = document.getElementById("live");
  if (live) {
    var every = 1000 * (parseInt(live.getAttribute("data-every"), 10) || 5);
    var refresh = function () {
      fetch(window.location.href, { headers: { Accept: "text/html" }, cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (!html) { return; }
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
          if (!fresh) { return; }
          live.replaceChildren.apply(live, Array.prototype.slice.call(fresh.childNodes));
          live.setAttribute("data-updated", String(Date.now()));
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
