/* damas-swiss: a few lines of our own, no library. */
(function () {
  "use strict";
  // Names match whatever the accents, the case and the apostrophe (' or ’): the same fold as the server's
  // (tournaments/domain/names.py), so "Sant'Anna" finds "Márcia Sant’Anna" (issue 37.5).
  function fold(text) {
    return (text || "").replace(/['\u2019\u2018\u02bc\u0060\u00b4\u2032]/g, "").normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/\s+/g, " ").trim();
  }
  // What a piece of page needs to work: run on the page, and again by live.js on a <main> it refreshed.
  function init(root) {
    // Search boxes: <input data-filter="#table"> hides rows whose data-search does not contain every typed word.
    root.querySelectorAll("input[data-filter]").forEach(function (input) {
      var table = document.querySelector(input.getAttribute("data-filter"));
      if (!table) return;
      // rows carry their search text in data-search, or are searched by their own text (standings)
      var rows = Array.prototype.slice.call(table.querySelectorAll("tbody tr:not(.tie-group)"));
      var keys = rows.map(function (row) { return fold(row.getAttribute("data-search") || row.textContent); });
      var groups = table.querySelectorAll("tbody tr.tie-group");
      function apply() {
        var words = fold(input.value).split(/\s+/).filter(Boolean);
        rows.forEach(function (row, i) {
          var show = words.every(function (w) { return keys[i].indexOf(w) !== -1; });
          row.hidden = !show;
        });
        groups.forEach(function (g) { g.hidden = words.length > 0; });
      }
      input.addEventListener("input", apply);
      if (input.value) apply();
    });
    // Language select submits its form.
    root.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
      select.addEventListener("change", function () { select.form.submit(); });
    });
    // Print buttons.
    root.querySelectorAll("[data-print]").forEach(function (button) {
      button.addEventListener("click", function () { window.print(); });
    });
    // A pairing edited by hand (issue 28.6): choosing a player who sits elsewhere in the form swaps the two.
    root.querySelectorAll("form[data-swap]").forEach(function (form) {
      var selects = Array.prototype.slice.call(form.querySelectorAll("select"));
      selects.forEach(function (select) {
        select.setAttribute("data-previous", select.value);
        select.addEventListener("change", function () {
          var chosen = select.value, before = select.getAttribute("data-previous");
          if (chosen) {
            selects.forEach(function (other) {
              if (other !== select && other.value === chosen) {
                other.value = before;
                other.setAttribute("data-previous", before);
              }
            });
          }
          select.setAttribute("data-previous", chosen);
        });
      });
    });
    // Game viewer: one position at a time, buttons and arrow keys.
    root.querySelectorAll("[data-viewer]").forEach(function (viewer) {
      var frames = viewer.querySelectorAll("[data-frame]");
      var current = 0;
      function show(i) {
        current = Math.max(0, Math.min(frames.length - 1, i));
        frames.forEach(function (f, j) { f.hidden = j !== current; });
      }
      viewer.querySelectorAll("[data-step]").forEach(function (button) {
        button.addEventListener("click", function () { show(current + parseInt(button.getAttribute("data-step"), 10)); });
      });
      viewer.tabIndex = 0;
      viewer.addEventListener("keydown", function (e) {
        if (e.key === "ArrowRight") show(current + 1);
        if (e.key === "ArrowLeft") show(current - 1);
      });
    });
  }
  window.damas = { init: init };
  init(document);

  // Pairing in progress: poll the job's status, show it, open the result when it has ended.
  var job = document.querySelector("[data-pairing-job]");
  if (job && window.fetch) {
    var bar = document.getElementById("pairing-progress");
    var label = document.getElementById("pairing-label");
    var since = Date.now();
    var poll = function () {
      fetch(job.getAttribute("data-pairing-job"), { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (state) {
          if (state) {
            if (bar) { bar.value = state.percent; bar.textContent = state.percent + "%"; }
            // the seconds go on even while a large bracket is being computed: the page is alive
            if (label) label.textContent = state.label + " · " + Math.round((Date.now() - since) / 1000) + " s";
            if (state.next) { window.location.assign(state.next); return; }
          }
          window.setTimeout(poll, 700);
        })
        .catch(function () { window.setTimeout(poll, 2000); });
    };
    window.setTimeout(poll, 400);
  }
  // Venue screen: scroll long lists slowly, then reload for fresh results.
  var screen = document.querySelector("[data-screen]");
  if (screen) {
    var seconds = parseInt(screen.getAttribute("data-refresh"), 10) || 60;
    var started = Date.now();
    var pause = 4000;
    function tick() {
      var elapsed = Date.now() - started;
      var room = document.documentElement.scrollHeight - window.innerHeight;
      if (room > 0 && elapsed > pause) {
        var span = seconds * 1000 - 2 * pause;
        var y = Math.min(room, room * (elapsed - pause) / Math.max(span, 1000));
        window.scrollTo(0, y);
      }
      if (elapsed >= seconds * 1000) { window.location.reload(); return; }
      window.requestAnimationFrame(tick);
    }
    window.requestAnimationFrame(tick);
  }
})();
