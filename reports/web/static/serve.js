// Progressive enhancement only: every page works without this script.
// 1. Live standings: poll the page and redraw its live part.
// 2. Score sheet: mark a score cell that is not a number as you type.
// 3. The round's clock: count the minutes left down (venue screen, table pages).
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
  // Each "N min left" counts from the seconds left when the server made it, on this
  // page's own timer (a phone's clock may be wrong); a fresh copy from the live
  // standings' poll starts again from its own.
  var tick = function () {
    var now = Date.now();
    Array.prototype.forEach.call(document.querySelectorAll("[data-seconds-left]"), function (left) {
      var min = left.querySelector(".min");
      if (!min) { return; }
      var end = parseFloat(left.getAttribute("data-end"));
      if (isNaN(end)) {
        end = now + 1000 * parseInt(left.getAttribute("data-seconds-left"), 10);
        left.setAttribute("data-end", String(end));
      }
      min.textContent = String(Math.max(0, Math.ceil((end - now) / 60000)));
    });
  };
  if (document.querySelector("[data-seconds-left]") || live) {
    tick();
    setInterval(tick, 5000);
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
