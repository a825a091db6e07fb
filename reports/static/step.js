/* Replay steppers: progressive enhancement.
   A replay page holds every step (a checkers position, a trick) in a .steps box;
   CSS shows the one the address names (#ply-12, #trick-3) or else the first, so
   the previous/next links and the move list work without JavaScript. This file
   adds the arrow keys (← previous, → next) and marks the links to the current
   step with aria-current="step". No inline script: the pages' Content Security
   Policy allows only the site's own files. */
(function () {
  "use strict";

  function currentStep(box) {
    var id = "";
    try { id = decodeURIComponent(window.location.hash.slice(1)); } catch (e) { id = ""; }
    var target = id ? document.getElementById(id) : null;
    if (target && target.parentNode === box) { return target; }
    return box.querySelector(".step.initial");
  }

  function markCurrent(box) {
    var step = currentStep(box);
    var marked = document.querySelectorAll('a[aria-current="step"]');
    Array.prototype.forEach.call(marked, function (link) { link.removeAttribute("aria-current"); });
    if (!step) { return; }
    var links = document.querySelectorAll('a[href="#' + step.id + '"]');
    Array.prototype.forEach.call(links, function (link) {
      if (!box.contains(link)) { link.setAttribute("aria-current", "step"); }
    });
  }

  function sibling(step, forward) {
    var next = forward ? step.nextElementSibling : step.previousElementSibling;
    while (next && !next.classList.contains("step")) {
      next = forward ? next.nextElementSibling : next.previousElementSibling;
    }
    return next;
  }

  function init() {
    var box = document.querySelector(".steps");
    if (!box) { return; }
    markCurrent(box);
    window.addEventListener("hashchange", function () { markCurrent(box); });
    document.addEventListener("keydown", function (event) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") { return; }
      var focused = document.activeElement;
      if (focused && /^(INPUT|TEXTAREA|SELECT)$/.test(focused.tagName)) { return; }
      var step = currentStep(box);
      var to = step ? sibling(step, event.key === "ArrowRight") : null;
      if (!to) { return; }
      event.preventDefault();
      window.location.replace("#" + to.id);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
