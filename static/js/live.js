/* damas-swiss: live public pages. <main data-live="URL" data-live-version="N"> asks URL (a few hundred bytes,
   a 304 when nothing changed) every few seconds while the page is in view, and when the tournament's version
   is no longer N fetches the page again and puts its new <main> in place: no reload, the scroll position, a
   typed search and the focus kept. Paused while the page is hidden; slower on a data-saving phone; backs off
   when the network fails. */
(function () {
  "use strict";
  // Spreading the phones (issue 34.15): each wait is drawn between 3/4 and 5/4 of its length, so phones that
  // started together drift apart; and when the server says when to fetch (Retry-After, seconds: while its cache is
  // down the version changes for every phone at the same moment), the page is fetched that much later, each phone
  // at its own moment. rand() is Math.random, or a test's.
  var spread = {
    wait: function (ms, rand) { return Math.round(ms * (0.75 + 0.5 * rand())); },
    refetchAfter: function (retryAfter, rand) {
      var seconds = parseInt(retryAfter, 10);
      if (!(seconds > 0)) return 0;
      return Math.floor(Math.min(seconds, 120) * 1000 * rand());
    }
  };
  window.damasLive = spread;
  var main = document.getElementById("main");
  var url = main && main.getAttribute("data-live");
  if (!url || !window.fetch || !window.DOMParser) return;
  var version = main.getAttribute("data-live-version");
  var saveData = navigator.connection && navigator.connection.saveData;
  var every = (parseInt(main.getAttribute("data-live-every"), 10) || 5) * 1000 * (saveData ? 4 : 1);
  var delay = every;
  var timer = null;
  var busy = false;
  var stuck = 0;

  function schedule(ms) {
    window.clearTimeout(timer);
    if (!document.hidden) timer = window.setTimeout(check, spread.wait(ms, Math.random));
  }

  function later(ms) {
    return new Promise(function (resolve) { window.setTimeout(resolve, ms); });
  }

  function keepTyped() {
    var kept = { values: {}, focus: null, start: null, end: null };
    main.querySelectorAll("input[id]").forEach(function (input) { kept.values[input.id] = input.value; });
    var active = document.activeElement;
    if (active && active.id && main.contains(active)) {
      kept.focus = active.id;
      try { kept.start = active.selectionStart; kept.end = active.selectionEnd; } catch (e) { /* not a text box */ }
    }
    return kept;
  }

  function restoreTyped(kept) {
    Object.keys(kept.values).forEach(function (id) {
      var input = document.getElementById(id);
      if (input && main.contains(input) && input.value !== kept.values[id]) input.value = kept.values[id];
    });
    var focus = kept.focus && document.getElementById(kept.focus);
    if (focus) {
      focus.focus({ preventScroll: true });
      try { if (kept.start !== null) focus.setSelectionRange(kept.start, kept.end); } catch (e) { /* not text */ }
    }
  }

  function refresh(next) {
    return fetch(window.location.href, { credentials: "same-origin", cache: "no-cache" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("main");
        if (!fresh) return;
        var kept = keepTyped();
        var x = window.scrollX, y = window.scrollY;
        main.innerHTML = fresh.innerHTML;
        // The page says which version it was built for. A page kept from before the change (while the server
        // rebuilds it) says the older one, so it is asked for again at the next check; should a page keep an
        // older number three times running, take the server's and wait for the next change.
        var built = fresh.getAttribute("data-live-version") || next;
        stuck = built === version ? stuck + 1 : 0;
        version = stuck >= 3 ? next : built;
        if (stuck >= 3) stuck = 0;
        main.setAttribute("data-live-version", version);
        if (doc.title) document.title = doc.title;
        restoreTyped(kept);  // before init: a search box filters the new rows with what was typed
        if (window.damas && window.damas.init) window.damas.init(main);
        window.scrollTo(x, y);
        main.dispatchEvent(new CustomEvent("damas:updated", { bubbles: true }));
      });
  }

  function check() {
    if (busy) return;
    busy = true;
    var wait = 0;
    fetch(url, { credentials: "omit", cache: "no-cache" })
      .then(function (r) {
        if (!r.ok) throw new Error(r.status);
        wait = spread.refetchAfter(r.headers.get("Retry-After"), Math.random);
        return r.text();
      })
      .then(function (text) {
        var now = text.trim();
        if (!now || now === version) return null;
        return wait ? later(wait).then(function () { return refresh(now); }) : refresh(now);
      })
      .then(function () { delay = every; })
      .catch(function () { delay = Math.min(delay * 2, 60000); })
      .then(function () { busy = false; schedule(delay); });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) window.clearTimeout(timer);
    else schedule(0);
  });
  schedule(every);
})();
