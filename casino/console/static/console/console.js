// Pit console: parts of a page marked data-refresh-url reload themselves every few seconds. A
// refreshed part may carry the page's buttons as the object's state allows them now
// ([data-object-tools]): they replace the page's, so a round that settled meanwhile loses
// its "Request void" at once; a page following a round that finished (settled or voided)
// reloads once, so its record below the panel is current too.
(function () {
  "use strict";
  function swapButtons(el) {
    var fresh = el.querySelector("[data-object-tools]");
    var tools = document.querySelector(".object-tools");
    if (!fresh || !tools) { return; }
    tools.querySelectorAll("li[data-console-action]").forEach(function (li) { li.remove(); });
    var first = tools.firstChild;
    Array.prototype.slice.call(fresh.children).forEach(function (li) { tools.insertBefore(li, first); });
  }
  function refresh(el) {
    var seconds = parseFloat(el.dataset.refreshSeconds || "3");
    setTimeout(function tick() {
      fetch(el.dataset.refreshUrl, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
        .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); })
        .then(function (html) {
          el.innerHTML = html;
          el.classList.remove("console-stale");
          swapButtons(el);
          if (el.dataset.reloadWhenFinished && el.querySelector("[data-round-finished]")) {
            window.location.reload();
          }
        })
        .catch(function () { el.classList.add("console-stale"); })
        .finally(function () { setTimeout(tick, seconds * 1000); });
    }, seconds * 1000);
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-refresh-url]").forEach(refresh);
  });
})();
