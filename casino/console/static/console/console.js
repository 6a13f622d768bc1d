// Pit console: parts of a page marked data-refresh-url reload themselves every few seconds.
(function () {
  "use strict";
  function refresh(el) {
    var seconds = parseFloat(el.dataset.refreshSeconds || "3");
    setTimeout(function tick() {
      fetch(el.dataset.refreshUrl, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
        .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); })
        .then(function (html) { el.innerHTML = html; el.classList.remove("console-stale"); })
        .catch(function () { el.classList.add("console-stale"); })
        .finally(function () { setTimeout(tick, seconds * 1000); });
    }, seconds * 1000);
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-refresh-url]").forEach(refresh);
  });
})();
