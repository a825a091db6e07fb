// Progressive enhancement only: every page works without this script.
// 1. Live standings: poll the page and redraw its live part.
// 2. Score sheet: mark a score cell that is not a number as you type; focus the
//    first field at fault; send it without leaving the page, so that a phone that
//    loses the Wi-Fi while sending keeps what was typed and can send it again (the
//    server stores the same result once). What is typed is also kept for the tab
//    (sessionStorage) until the table's result is in, for a reload. A correction of
//    the stored result (#correction) is sent the same way, without a draft kept.
// 3. The round's clock: count the minutes left down (venue screen, table pages).
// 4. The organizer's round page follows the round: a small poll says whether the
//    round changed; only then is the page fetched and its parts swapped in, except
//    those holding what the organizer is typing, has chosen or has open.
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
  // 4. The organizer's round page. One small request (#round-live's data-live) per
  // interval per open page; none while the tab is hidden (one as soon as it shows
  // again); longer waits after a failure (a server restarting, a login ended).
  var follow = document.getElementById("round-live");
  if (follow && window.fetch && window.DOMParser) {
    var base = 1000 * (parseInt(follow.getAttribute("data-every"), 10) || 5);
    var wait = base, timer = null, asking = false, pending = false, gone = false;
    // a part the organizer is using: focus in it, a box typed in, a box ticked or a
    // choice made (against what the page came with), a disclosure opened
    var busy = function (part) {
      if (part.contains(document.activeElement) && document.activeElement !== document.body) {
        return true;
      }
      if (part.querySelector("details[open]")) { return true; }
      return Array.prototype.some.call(part.querySelectorAll("input, textarea, select"), function (field) {
        if (field.type === "hidden") { return false; }
        if (field.type === "checkbox" || field.type === "radio") { return field.checked !== field.defaultChecked; }
        if (field.tagName === "SELECT") {
          return Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
        }
        return field.value !== field.defaultValue;
      });
    };
    // another round is seated: the page says so and stops following its own
    var stale = function () {
      var note = document.getElementById("round-stale");
      if (note) { note.hidden = false; }
      gone = true;
    };
    var swap = function (fresh) {
      var kept = false;
      Array.prototype.forEach.call(document.querySelectorAll("[data-follow]"), function (part) {
        var other = fresh.getElementById(part.id);
        if (!other) { return; }
        if (busy(part)) { kept = true; return; }
        part.replaceWith(document.importNode(other, true));
      });
      // the reviews one by one: a table's review being used stays as it is
      Array.prototype.forEach.call(document.querySelectorAll("[data-follow-each]"), function (list) {
        var freshList = fresh.getElementById(list.id);
        if (!freshList) { return; }
        Array.prototype.slice.call(list.children).forEach(function (part) {
          var other = part.id && freshList.querySelector("#" + CSS.escape(part.id));
          if (busy(part)) { kept = kept || !other || other.outerHTML !== part.outerHTML; return; }
          if (other) { part.replaceWith(document.importNode(other, true)); } else { part.remove(); }
        });
        var before = null;
        Array.prototype.forEach.call(freshList.children, function (other) {
          var here = document.getElementById(other.id);
          if (!here) {
            here = document.importNode(other, true);
            if (before) { before.after(here); } else { list.prepend(here); }
          }
          before = here;
        });
      });
      return kept;
    };
    var refresh = function () {
      return fetch(window.location.href, { headers: { Accept: "text/html" }, credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html");
          var live = fresh.getElementById("round-live");
          var now = document.getElementById("round-live");
          if (!live || !now) { return; }
          if (live.getAttribute("data-round") !== now.getAttribute("data-round")) { stale(); return; }
          pending = swap(fresh);
          document.body.setAttribute("data-followed", String(Date.now()));
        });
    };
    var schedule = function () {
      clearTimeout(timer);
      timer = document.hidden || gone ? null : setTimeout(poll, wait);
    };
    var poll = function () {
      timer = null;
      if (document.hidden || asking || gone) { return; }
      var now = document.getElementById("round-live");
      asking = true;
      fetch(now.getAttribute("data-live"), { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
        .then(function (data) {
          wait = base;
          if (String(data.latest || 0) !== now.getAttribute("data-round")) { stale(); return; }
          if (data.state !== now.getAttribute("data-state")) { return refresh(); }
          // a part kept while it was used is brought up to date once it is not
          var parts = document.querySelectorAll("[data-follow], [data-follow-each] > *");
          if (pending && !Array.prototype.some.call(parts, busy)) { return refresh(); }
        })
        .catch(function () { wait = Math.min(wait * 2, 60000); })
        .then(function () { asking = false; schedule(); });
    };
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) { clearTimeout(timer); timer = null; } else if (timer === null) { poll(); }
    });
    schedule();
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
  // The listeners are on the document: the sheet is swapped for the server's
  // answer after each send.
  var kept = "sheet:" + window.location.pathname;
  var fields = function (sheet) {
    return Array.prototype.filter.call(sheet.elements, function (field) {
      return /^(score-|dealer-|seat-|record$)/.test(field.name);
    });
  };
  var keep = function (sheet) {
    var values = {};
    fields(sheet).forEach(function (field) { values[field.name] = field.value; });
    try { window.sessionStorage.setItem(kept, JSON.stringify(values)); } catch (e) { /* private mode */ }
  };
  var sheetReady = function (refused) {
    var sheet = document.getElementById("sheet");
    if (!sheet && refused) { return; }  // kept for the reload the refusal asks for
    if (!sheet) {  // the result is in (stored, waiting, closed): nothing to keep
      try { window.sessionStorage.removeItem(kept); } catch (e) { /* private mode */ }
      return;
    }
    var typed = fields(sheet).some(function (field) {
      return field.type !== "hidden" && field.value !== "";
    });
    var values = null;
    try { values = JSON.parse(window.sessionStorage.getItem(kept) || "null"); } catch (e) { values = null; }
    if (values && !typed) {  // a reload after a send that did not get through
      // A score box is kept under the player it was typed for (seat-N names the
      // players as the page showed them): if the seating changed meanwhile, it goes
      // to that player's seat now, and a newcomer's boxes stay empty.
      var column = {};  // seat now -> seat typed
      fields(sheet).forEach(function (field) {
        if (field.name.indexOf("seat-") !== 0) { return; }
        var seat = field.name.slice(5);
        Object.keys(values).forEach(function (key) {
          if (key.indexOf("seat-") === 0 && values[key] === field.value) { column[seat] = key.slice(5); }
        });
        if (!Object.keys(values).some(function (key) { return key.indexOf("seat-") === 0; })) {
          column[seat] = seat;  // kept by a page that named no players
        }
      });
      fields(sheet).forEach(function (field) {
        var key = field.name;
        if (key.indexOf("seat-") === 0) { return; }
        var score = /^score-(\d+)-(\d+)$/.exec(key);
        if (score) {
          if (!Object.prototype.hasOwnProperty.call(column, score[2])) { return; }
          key = "score-" + score[1] + "-" + column[score[2]];
        }
        if (Object.prototype.hasOwnProperty.call(values, key)) { field.value = values[key]; }
      });
    }
    var first = document.getElementById("errors") && sheet.querySelector('[aria-invalid="true"]');
    if (first) { first.focus(); }
  };
  document.addEventListener("input", function (e) {
    var input = e.target;
    var sheet = input.form;
    if (!sheet || !sheet.classList.contains("sheet")) { return; }
    if (sheet.id === "sheet") { keep(sheet); }  // a correction keeps no draft
    if (!input.name || input.name.indexOf("score-") !== 0) { return; }
    var ok = input.value.trim() === "" || /^-?\d+([.,]\d+)?$/.test(input.value.trim());
    input.setAttribute("aria-invalid", ok ? "false" : "true");
  });
  document.addEventListener("submit", function (e) {
    var sheet = e.target;
    if (!sheet.classList.contains("sheet") || !window.fetch || !window.URLSearchParams) { return; }
    e.preventDefault();
    if (sheet.id === "sheet") { keep(sheet); }
    var button = sheet.querySelector("button[type=submit]");
    var unsent = document.getElementById("unsent");
    if (unsent) { unsent.hidden = true; }
    if (button) { button.disabled = true; }
    var failed = function () {
      if (button) { button.disabled = false; }
      if (unsent) { unsent.hidden = false; unsent.focus(); }
    };
    fetch(sheet.getAttribute("action") || window.location.href, {
      method: "POST", body: new URLSearchParams(new FormData(sheet)),
      headers: { Accept: "text/html" }, credentials: "same-origin", cache: "no-store"
    }).then(function (r) {
      // every answer about the result is a page; anything else (busy, an expired
      // form) did not take it: what was typed stays to send again
      if ((r.headers.get("content-type") || "").indexOf("text/html") !== 0) { failed(); return; }
      // busy, or the server did not answer itself: not sent, to send again as it is
      if (r.status >= 500) { failed(); return; }
      // a refusal that did not look at the result (an expired form, too many
      // attempts, too large, too slow): its page says why; what was typed stays kept
      var refused = [403, 408, 413, 429].indexOf(r.status) !== -1;
      return r.text().then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var main = document.querySelector("main"), freshMain = fresh.querySelector("main");
        if (!main || !freshMain) { failed(); return; }
        main.replaceChildren.apply(main, Array.prototype.slice.call(freshMain.childNodes));
        document.title = fresh.title;
        window.scrollTo(0, 0);
        sheetReady(refused);
      });
    }).catch(failed);
  });
  sheetReady();
})();
